/**
 * Mount points: virtual folders that map a path of the explorer and of WebDAV onto a storage
 * config. Mount paths never overlap (no mount inside another), so a path resolves to at most
 * one mount by prefix.
 */
import { ulid } from "../lib/ulid.ts";
import type { MountRecord, MountRepo } from "../kv/mount_repo.ts";
import type { StorageConfigService } from "./storage_configs.ts";
import { type Auth, creatorOf } from "./auth.ts";
import { AppError, badRequest, conflict, forbidden, notFound } from "../errors.ts";
import { isPathWithinBase, normalizePath } from "../../shared/permissions.ts";
import type { MountCreate, MountUpdate, MountView } from "../../shared/schemas/mounts.ts";
import { assertMountKey } from "../storage/share_area.ts";

/** First segments a mount may not take (they are the app's own). */
const RESERVED_FIRST_SEGMENTS = new Set(["api", "dav", "admin", ".well-known", ".cubby"]);

/** True when one of two normalised paths equals or contains the other. */
function overlaps(a: string, b: string): boolean {
  return isPathWithinBase(a, b) || isPathWithinBase(b, a);
}

function toView(rec: MountRecord): MountView {
  return { ...rec };
}

/** A path resolved to its mount: `key` is the storage key below the mount ("" for its root). */
export type Resolved = { mount: MountRecord; key: string; path: string };

export class MountService {
  constructor(private repo: MountRepo, private storage: StorageConfigService) {}

  /** Cleans and checks a mount path; throws 400 mount_path_invalid or mount_path_reserved. */
  private cleanPath(path: string): string {
    const p = normalizePath(path);
    if (p === null || p === "/") throw badRequest("mount_path_invalid");
    if (RESERVED_FIRST_SEGMENTS.has(p.split("/")[1].toLowerCase())) {
      throw badRequest("mount_path_reserved");
    }
    return p;
  }

  /**
   * The mount's storage type, taken from its config. "s3" (the only type CloudPaste's client
   * knows) is accepted for a local config too; "local" on an S3 config is a mismatch (400).
   */
  private async checkConfig(configId: string, storageType: "s3" | "local") {
    const cfg = await this.storage.getRecord(configId);
    const kind = cfg.provider_type === "local" ? "local" : "s3";
    if (storageType === "local" && kind !== "local") throw badRequest("mount_storage_mismatch");
    return kind;
  }

  private async assertFree(path: string, exceptId?: string) {
    for (const m of await this.repo.list()) {
      if (m.id !== exceptId && overlaps(m.mount_path, path)) {
        throw conflict("mount_path_taken", { path: m.mount_path });
      }
    }
  }

  /** Mounts the caller may see: all for the admin; active ones touching the key's base path. */
  async list(auth: Auth): Promise<MountView[]> {
    const all = [...await this.repo.list()].sort((a, b) =>
      a.sort_order - b.sort_order || a.name.localeCompare(b.name)
    );
    if (auth.type === "admin") return all.map(toView);
    if (auth.type !== "apikey") return [];
    return all.filter((m) => m.is_active && overlaps(m.mount_path, auth.basicPath)).map(toView);
  }

  /** Creates a mount (admin). Throws 400 on invalid fields, 404 for a missing config, 409. */
  async create(input: MountCreate, auth: Auth): Promise<MountView> {
    if (auth.type !== "admin") throw forbidden();
    const path = this.cleanPath(input.mount_path);
    const storageType = await this.checkConfig(input.storage_config_id, input.storage_type);
    await this.assertFree(path);
    const now = new Date().toISOString();
    const rec: MountRecord = {
      id: ulid(),
      name: input.name,
      mount_path: path,
      storage_type: storageType,
      storage_config_id: input.storage_config_id,
      remark: input.remark ?? "",
      sort_order: input.sort_order ?? 0,
      cache_ttl: input.cache_ttl ?? 300,
      is_active: input.is_active ?? true,
      web_proxy: input.web_proxy ?? false,
      enable_sign: input.enable_sign ?? false,
      sign_expires: input.sign_expires ?? 0,
      webdav_policy: input.webdav_policy ?? "302_redirect",
      created_by: creatorOf(auth),
      created_at: now,
      updated_at: now,
    };
    if (!await this.repo.create(rec)) throw conflict("mount_path_taken");
    return toView(rec);
  }

  /** Updates a mount (admin). */
  async update(id: string, input: MountUpdate, auth: Auth): Promise<MountView> {
    if (auth.type !== "admin") throw forbidden();
    const entry = await this.repo.get(id);
    if (!entry.value) throw notFound("mount_not_found");
    const prev = entry.value;
    const next: MountRecord = {
      ...prev,
      ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
      updated_at: new Date().toISOString(),
    } as MountRecord;
    next.mount_path = this.cleanPath(next.mount_path);
    if (next.mount_path !== prev.mount_path) await this.assertFree(next.mount_path, id);
    if (
      next.storage_config_id !== prev.storage_config_id || next.storage_type !== prev.storage_type
    ) {
      next.storage_type = await this.checkConfig(next.storage_config_id, next.storage_type);
    }
    if (!await this.repo.update(prev, next, entry.versionstamp)) throw conflict("mount_path_taken");
    return toView(next);
  }

  /** Deletes a mount (admin); its stored files stay where they are. */
  async delete(id: string, auth: Auth): Promise<void> {
    if (auth.type !== "admin") throw forbidden();
    const { value } = await this.repo.get(id);
    if (!value) throw notFound("mount_not_found");
    await this.repo.delete(value);
  }

  /**
   * Resolves a virtual path to its mount and storage key, for a caller allowed to see it.
   * Throws 400 for invalid paths, 403 outside the key's base path or inside Cubby's reserved
   * area (`storage_path_reserved`), 404 when no active mount holds the path.
   */
  async resolve(path: string, auth: Auth): Promise<Resolved> {
    const p = normalizePath(path);
    if (p === null) throw badRequest("storage_path_invalid");
    if (auth.type === "apikey" && !isPathWithinBase(p, auth.basicPath)) {
      throw new AppError("forbidden", 403, { path: p });
    }
    for (const m of await this.repo.list()) {
      if (!m.is_active || !isPathWithinBase(p, m.mount_path)) continue;
      const key = p.slice(m.mount_path.length).replace(/^\//, "");
      assertMountKey(key); // share objects and Cubby's own files are out of reach
      return { mount: m, key, path: p };
    }
    throw notFound("mount_not_found", { path: p });
  }
}
