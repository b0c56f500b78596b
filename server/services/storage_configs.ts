/**
 * Storage configs: CRUD, the default, secrets sealed at rest, connection tests, and the one
 * place a config becomes a live driver (cached until the config changes).
 */
import { ulid } from "../lib/ulid.ts";
import { join } from "node:path";
import type { Config } from "../config.ts";
import {
  localStorageConfig,
  type NameClaim,
  storageConfigNameKey,
  type StorageConfigRecord,
  type StorageConfigRepo,
} from "../kv/storage_config_repo.ts";
import type { SecretBox } from "./secret_box.ts";
import type { Auth } from "./auth.ts";
import { AppError, badRequest, conflict, notFound } from "../errors.ts";
import type {
  StorageConfigCreate,
  StorageConfigUpdate,
  StorageConfigView,
  StorageTestStep,
} from "../../shared/schemas/storage_configs.ts";
import type { StorageDriver } from "../storage/driver.ts";
import { createDriver } from "../storage/factory.ts";
import { mountScoped } from "../storage/share_area.ts";
import { checkStorage } from "./storage_check.ts";
import { forgetMemoized, memoized } from "../kv/request_memo.ts";

const DEFAULT_SIGNATURE_EXPIRES = 3600;

function mask(value: string): string {
  if (!value) return "";
  return value.length <= 4 ? "••••" : `${value.slice(0, 4)}${"•".repeat(8)}`;
}

/** 409 for a name another config has, at the name field. */
function nameTaken(): AppError {
  return conflict("storage_config_name_exists", { fields: { name: "storage_config_name_exists" } });
}

export class StorageConfigService {
  private drivers = new Map<string, { stamp: string; driver: StorageDriver }>();

  constructor(
    private config: Config,
    private repo: StorageConfigRepo,
    private box: SecretBox,
    private signingSecret: string,
  ) {}

  /**
   * On a fresh install, creates a public local config under DATA_DIR/storage as the default.
   * Its name is stored empty: routes show it in the reader's language (shared/storage_names.ts).
   *
   * On a shared KV (KV_URL) local storage lives on one host only, so none is created, and any
   * local config found is named in a warning: instances on other hosts cannot reach its files.
   */
  async ensureDefault(log: (msg: string) => void = console.log): Promise<void> {
    if (this.config.kvUrl) {
      const local = (await this.repo.list()).filter((c) => c.provider_type === "local");
      if (local.length > 0) {
        log(
          `Warning: KV_URL is set, so several instances may share this KV, but ${local.length} ` +
            "storage config(s) use local storage, which lives on one host: files stored there " +
            "cannot be read through instances on other hosts. Use S3 storage with several instances.",
        );
      } else if (!await this.repo.getDefaultId()) {
        log("KV_URL is set: no local storage is created; add an S3 storage config for uploads.");
      }
      return;
    }
    if (await this.repo.getDefaultId()) return;
    if ((await this.repo.list()).length > 0) return;
    const now = new Date().toISOString();
    await this.repo.createInitialDefault(localStorageConfig({
      id: ulid(),
      name: "",
      is_public: true,
      signature_expires_in: DEFAULT_SIGNATURE_EXPIRES,
      root_dir: null,
      created_at: now,
      updated_at: now,
    }));
  }

  private async toView(
    rec: StorageConfigRecord,
    defaultId: string | null,
  ): Promise<StorageConfigView> {
    return {
      id: rec.id,
      name: rec.name,
      provider_type: rec.provider_type,
      storage_type: rec.provider_type === "local" ? "local" : "s3",
      endpoint_url: rec.endpoint_url,
      bucket_name: rec.bucket_name,
      region: rec.region,
      access_key_id_masked: mask(rec.access_key_id),
      has_secret: rec.secret_access_key_enc !== "",
      path_style: rec.path_style,
      default_folder: rec.default_folder,
      is_public: rec.is_public,
      is_default: rec.id === defaultId,
      custom_host: rec.custom_host,
      signature_expires_in: rec.signature_expires_in,
      total_storage_bytes: rec.total_storage_bytes,
      root_dir: rec.provider_type === "local" ? this.localRoot(rec) : null,
      used_bytes: await this.repo.usedBytes(rec.id),
      single_host_warning: rec.provider_type === "local" && this.config.kvUrl !== null,
      created_at: rec.created_at,
      updated_at: rec.updated_at,
    };
  }

  /** Lists configs: all for the admin, only public ones for key users. */
  async list(auth: Auth): Promise<StorageConfigView[]> {
    const defaultId = await this.repo.getDefaultId();
    const recs = (await this.repo.list()).filter((r) => auth.type === "admin" || r.is_public);
    return await Promise.all(recs.map((r) => this.toView(r, defaultId)));
  }

  /** One config as the caller may see it; key users only see public configs. */
  async get(id: string, auth: Auth): Promise<StorageConfigView> {
    const rec = await this.getRecord(id);
    if (auth.type !== "admin" && !rec.is_public) throw notFound("storage_config_not_found");
    return await this.toView(rec, await this.repo.getDefaultId());
  }

  /** The raw record, read once per request (kv/request_memo.ts); throws 404 when missing. */
  async getRecord(id: string): Promise<StorageConfigRecord> {
    const value = await memoized(
      `storage_config:${id}`,
      async () => (await this.repo.read(id)).value,
    );
    if (!value) throw notFound("storage_config_not_found");
    return value;
  }

  /** The config a new upload goes to: the given id (checked for key users) or the default. */
  async resolveForUpload(id: string | undefined, auth: Auth): Promise<StorageConfigRecord> {
    const target = id || await this.repo.getDefaultId();
    if (!target) throw notFound("storage_config_not_found");
    const rec = await this.getRecord(target);
    if (auth.type !== "admin" && !rec.is_public) {
      throw new AppError("storage_config_forbidden", 403);
    }
    return rec;
  }

  /** Creates a config; the first one becomes the default. */
  async create(input: StorageConfigCreate): Promise<StorageConfigView> {
    const now = new Date().toISOString();
    const rec: StorageConfigRecord = {
      id: ulid(),
      name: input.name,
      provider_type: input.provider_type,
      endpoint_url: input.endpoint_url ?? "",
      bucket_name: input.bucket_name ?? "",
      region: input.region || (input.provider_type === "r2" ? "auto" : "us-east-1"),
      access_key_id: input.access_key_id ?? "",
      secret_access_key_enc: input.secret_access_key
        ? await this.box.seal(input.secret_access_key)
        : "",
      path_style: input.path_style ?? input.provider_type === "minio",
      default_folder: cleanFolder(input.default_folder),
      is_public: input.is_public ?? false,
      custom_host: input.custom_host ?? "",
      signature_expires_in: input.signature_expires_in ?? DEFAULT_SIGNATURE_EXPIRES,
      total_storage_bytes: input.total_storage_bytes ?? null,
      root_dir: input.provider_type === "local" ? checkRoot(input.root_dir) : null,
      created_at: now,
      updated_at: now,
    };
    const claim = await this.claimName(rec.name, null);
    const first = (await this.repo.getDefaultId()) === null;
    if (!await this.repo.create(rec, first, claim)) throw await this.lostRace(rec.name, null);
    return await this.toView(rec, first ? rec.id : await this.repo.getDefaultId());
  }

  /** Updates a config; an empty or missing secret keeps the stored one. */
  async update(id: string, input: StorageConfigUpdate): Promise<StorageConfigView> {
    const entry = await this.repo.get(id);
    if (!entry.value) throw notFound("storage_config_not_found");
    const prev = entry.value;
    const providerType = input.provider_type ?? prev.provider_type;
    if ((providerType === "local") !== (prev.provider_type === "local")) {
      throw badRequest("validation_failed", { fields: { provider_type: "cannot switch kind" } });
    }
    const next: StorageConfigRecord = {
      ...prev,
      name: input.name ?? prev.name,
      provider_type: providerType,
      endpoint_url: input.endpoint_url ?? prev.endpoint_url,
      bucket_name: input.bucket_name ?? prev.bucket_name,
      region: input.region ?? prev.region,
      access_key_id: input.access_key_id ?? prev.access_key_id,
      secret_access_key_enc: input.secret_access_key
        ? await this.box.seal(input.secret_access_key)
        : prev.secret_access_key_enc,
      path_style: input.path_style ?? prev.path_style,
      default_folder: input.default_folder !== undefined
        ? cleanFolder(input.default_folder)
        : prev.default_folder,
      is_public: input.is_public ?? prev.is_public,
      custom_host: input.custom_host ?? prev.custom_host,
      signature_expires_in: input.signature_expires_in ?? prev.signature_expires_in,
      total_storage_bytes: input.total_storage_bytes !== undefined
        ? input.total_storage_bytes
        : prev.total_storage_bytes,
      root_dir: providerType === "local"
        ? (input.root_dir !== undefined ? checkRoot(input.root_dir) : prev.root_dir)
        : null,
      updated_at: new Date().toISOString(),
    };
    forgetMemoized(`storage_config:${id}`);
    const renamed = storageConfigNameKey(next.name) !== storageConfigNameKey(prev.name);
    const claim = renamed ? await this.claimName(next.name, id) : null;
    if (!await this.repo.update(prev, next, entry.versionstamp, claim)) {
      throw await this.lostRace(next.name, id);
    }
    this.drivers.delete(id);
    return await this.toView(next, await this.repo.getDefaultId());
  }

  /**
   * Checks that no other config has this name (trimmed, any case; the configs themselves decide,
   * so configs restored or made before the name index count too) and reads the index entry the
   * write will check. Throws 409 storage_config_name_exists at the name field.
   */
  private async claimName(name: string, selfId: string | null): Promise<NameClaim> {
    const key = storageConfigNameKey(name);
    if (!key) return null;
    const [all, claim] = await Promise.all([this.repo.list(), this.repo.claimName(name)]);
    if (all.some((c) => c.id !== selfId && storageConfigNameKey(c.name) === key)) {
      throw nameTaken();
    }
    return claim;
  }

  /** The error of a write whose commit failed: the name was just taken, or another change. */
  private async lostRace(name: string, selfId: string | null): Promise<AppError> {
    try {
      await this.claimName(name, selfId);
    } catch (err) {
      return err as AppError;
    }
    return conflict();
  }

  /** Deletes a config; 409 while files or mounts use it. */
  async delete(id: string): Promise<void> {
    const entry = await this.repo.get(id);
    if (!entry.value) throw notFound("storage_config_not_found");
    if (await this.repo.isInUse(id)) throw conflict("storage_config_in_use");
    const defaultId = await this.repo.getDefaultId();
    let nextDefault: string | null | undefined = undefined;
    if (defaultId === id) {
      nextDefault = (await this.repo.list()).find((r) => r.id !== id)?.id ?? null;
    }
    forgetMemoized(`storage_config:${id}`);
    if (!await this.repo.delete(id, entry.versionstamp, nextDefault)) throw conflict();
    this.drivers.delete(id);
  }

  /** Makes a config the default. */
  async setDefault(id: string): Promise<void> {
    await this.getRecord(id);
    await this.repo.setDefault(id);
  }

  /** The live driver of a config, built once per version of the config. */
  async driverFor(rec: StorageConfigRecord): Promise<StorageDriver> {
    const cached = this.drivers.get(rec.id);
    if (cached && cached.stamp === rec.updated_at) return cached.driver;
    const secret = rec.secret_access_key_enc ? await this.box.open(rec.secret_access_key_enc) : "";
    const driver = await createDriver(rec, {
      secretAccessKey: secret,
      localRoot: this.localRoot(rec),
      signingSecret: this.signingSecret,
    });
    this.drivers.set(rec.id, { stamp: rec.updated_at, driver });
    return driver;
  }

  /**
   * The driver of a config as mounts see it: Cubby's reserved area (share objects) is neither
   * listed nor reachable (storage/share_area.ts). Every mount-facing service uses this one.
   */
  async mountDriverFor(rec: StorageConfigRecord): Promise<StorageDriver> {
    return mountScoped(await this.driverFor(rec));
  }

  /** Where a local config keeps its files. */
  localRoot(rec: StorageConfigRecord): string {
    return rec.root_dir || join(this.config.dataDir, "storage");
  }

  /** The root folders of every local config, each once. */
  async localRoots(): Promise<string[]> {
    const recs = (await this.repo.list()).filter((r) => r.provider_type === "local");
    return [...new Set(recs.map((r) => this.localRoot(r)))];
  }

  /** Bytes used on a config (counted by uploads and deletes through Cubby). */
  usedBytes(id: string): Promise<number> {
    return this.repo.usedBytes(id);
  }

  /** Checks write, read, list and delete of a test object, then CORS for browser uploads. */
  async test(id: string): Promise<{ ok: boolean; steps: StorageTestStep[] }> {
    const rec = await this.getRecord(id);
    return await checkStorage(
      () => this.driverFor(rec),
      rec.provider_type === "local" ? this.localRoot(rec) : rec.endpoint_url || rec.provider_type,
    );
  }
}

function cleanFolder(folder: string | undefined): string {
  const f = (folder ?? "").trim().replace(/^\/+|\/+$/g, "");
  if (f.split("/").some((p) => p === ".." || p === ".") || f.includes("\\") || f.includes("\0")) {
    throw badRequest("validation_failed", { fields: { default_folder: "invalid folder" } });
  }
  return f;
}

function checkRoot(root: string | undefined): string | null {
  if (!root) return null;
  if (!root.startsWith("/") || root.includes("\0")) {
    throw badRequest("validation_failed", { fields: { root_dir: "must be an absolute path" } });
  }
  return root;
}
