/** API key management and verification (docs/PRODUCT.md §3.4, §6 and §13.5). */
import { ulid } from "../lib/ulid.ts";
import type { ApiKeyRecord, ApiKeyRepo } from "../kv/api_key_repo.ts";
import { AppError, badRequest, conflict, notFound } from "../errors.ts";
import { randomBase62, sha256Hex } from "../lib/crypto.ts";
import {
  maskToPermissions,
  normalizePath,
  pathProblem,
  permissionsToMask,
} from "../../shared/permissions.ts";
import type { ApiKeyCreate, ApiKeyUpdate, ApiKeyView } from "../../shared/schemas/api_keys.ts";

/** Characters of a key kept for display. */
export const KEY_PREFIX_LENGTH = 6;

/** True when the key's expiry has passed. */
export function isKeyExpired(rec: ApiKeyRecord, now = Date.now()): boolean {
  return rec.expires_at !== null && Date.parse(rec.expires_at) <= now;
}

function toView(rec: ApiKeyRecord, lastUsed: string | null): ApiKeyView {
  return {
    id: rec.id,
    name: rec.name,
    key_masked: `${rec.key_prefix}${"•".repeat(8)}`,
    permissions: maskToPermissions(rec.permissions),
    permission_mask: rec.permissions,
    role: rec.role,
    basic_path: rec.basic_path,
    is_guest: rec.is_guest,
    created_at: rec.created_at,
    expires_at: rec.expires_at,
    last_used: lastUsed,
    is_expired: isKeyExpired(rec),
  };
}

function cleanBasicPath(path: string): string {
  const p = normalizePath(path);
  if (p === null) {
    const problem = pathProblem(path) ?? "validation_failed";
    throw badRequest(problem, { fields: { basic_path: problem } });
  }
  return p;
}

/** 409 for a name another key has, at the name field. */
function nameTaken() {
  return conflict("api_key_name_exists", { fields: { name: "api_key_name_exists" } });
}

/** How often a key's last-used time is written at most: a statistic, not worth a commit each. */
export const TOUCH_INTERVAL_MS = 60_000;

export class ApiKeyService {
  /** When each key's last-used time was last written by this process. */
  private touchedAt = new Map<string, number>();

  constructor(private repo: ApiKeyRepo, private touchIntervalMs = TOUCH_INTERVAL_MS) {}

  /** Lists keys for the admin, masked. */
  async list(): Promise<ApiKeyView[]> {
    const recs = await this.repo.list();
    const used = await this.repo.lastUsed(recs.map((r) => r.id));
    return recs.map((r) => toView(r, used.get(r.id) ?? null));
  }

  /** Creates a key; the response holds the full key, the only time it is shown. */
  async create(input: ApiKeyCreate): Promise<ApiKeyView & { key: string }> {
    const key = input.custom_key ?? `cb_${randomBase62(32)}`;
    if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) {
      throw badRequest("expires_at_invalid");
    }
    const rec: ApiKeyRecord = {
      id: ulid(),
      name: input.name,
      key_hash: sha256Hex(key),
      key_prefix: key.slice(0, KEY_PREFIX_LENGTH),
      permissions: permissionsToMask(input.permissions),
      role: input.role,
      basic_path: cleanBasicPath(input.basic_path),
      is_guest: input.is_guest,
      created_at: new Date().toISOString(),
      expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null,
    };
    const res = await this.repo.create(rec);
    if (res === "hash") {
      throw conflict("api_key_exists", { fields: { custom_key: "api_key_exists" } });
    }
    if (res === "name") throw nameTaken();
    return { ...toView(rec, null), key };
  }

  /** Updates a key's name, expiry, permissions, role, base path or guest flag. */
  async update(id: string, input: ApiKeyUpdate): Promise<ApiKeyView> {
    const entry = await this.repo.get(id);
    if (!entry.value) throw notFound("api_key_not_found");
    const prev = entry.value;
    const next: ApiKeyRecord = {
      ...prev,
      name: input.name ?? prev.name,
      expires_at: input.expires_at === undefined
        ? prev.expires_at
        : input.expires_at && new Date(input.expires_at).toISOString(),
      permissions: input.permissions ? permissionsToMask(input.permissions) : prev.permissions,
      role: input.role ?? prev.role,
      basic_path: input.basic_path ? cleanBasicPath(input.basic_path) : prev.basic_path,
      is_guest: input.is_guest ?? prev.is_guest,
    };
    const res = await this.repo.update(prev, next, entry.versionstamp);
    if (res === "name") throw nameTaken();
    if (res === "conflict") throw new AppError("conflict", 409);
    const used = await this.repo.lastUsed([id]);
    return toView(next, used.get(id) ?? null);
  }

  /** Deletes a key. Throws 404 when it does not exist. */
  async delete(id: string): Promise<void> {
    const { value } = await this.repo.get(id);
    if (!value) throw notFound("api_key_not_found");
    await this.repo.delete(value);
    this.touchedAt.delete(id);
  }

  /** The record of a key by id when it exists and has not expired; null otherwise. */
  async getRecord(id: string): Promise<ApiKeyRecord | null> {
    const { value } = await this.repo.get(id);
    return value && !isKeyExpired(value) ? value : null;
  }

  /**
   * Returns the key record for a valid, unexpired key and records its use (at most once per
   * touch interval, so `last_used` may lag by up to a minute); null otherwise.
   */
  async verify(key: string): Promise<ApiKeyRecord | null> {
    const rec = (await this.lookup(key, [])).rec;
    if (rec) await this.touch(rec.id);
    return rec;
  }

  /**
   * The record of a valid, unexpired key (null otherwise), with `alongside` read in the same
   * snapshot. Records no use: call `touch` once the caller accepts the key.
   */
  async lookup(
    key: string,
    alongside: Deno.KvKey[],
  ): Promise<{ rec: ApiKeyRecord | null; alongside: Deno.KvEntryMaybe<unknown>[] }> {
    const valid = key.length >= 1 && key.length <= 256;
    const found = await this.repo.findByHash(sha256Hex(valid ? key : ""), alongside);
    return found.rec && (!valid || isKeyExpired(found.rec)) ? { ...found, rec: null } : found;
  }

  /** Records a key's use durably at most once per touch interval (per process). */
  async touch(id: string): Promise<void> {
    const now = Date.now();
    const last = this.touchedAt.get(id);
    if (last !== undefined && now - last < this.touchIntervalMs) return;
    this.touchedAt.set(id, now);
    try {
      await this.repo.touch(id);
    } catch (err) {
      this.touchedAt.delete(id);
      throw err;
    }
  }
}
