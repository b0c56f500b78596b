/** Managing file shares once recorded: views, listing, editing, deleting, expiry. */
import { slugHeldBySweptShare } from "./tombstones.ts";
import type { FileRecord, FileRepo } from "./file_repo.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import { badRequest, conflict, notFound } from "../errors.ts";
import { hashPassword } from "../lib/crypto.ts";
import { isReservedSlug } from "../../shared/slug.ts";
import type { FileUpdate, FileView } from "../../shared/schemas/files.ts";
import { assertCanManage } from "./file_admission.ts";

/** The management half of the file service (FileService adds the uploads). */
export class FileManagement {
  constructor(
    protected repo: FileRepo,
    protected storage: StorageConfigService,
    protected kdfIterations: number,
  ) {}

  /** The view a creator or admin sees. */
  async toView(rec: FileRecord): Promise<FileView> {
    const { password_hash, etag: _etag, ...rest } = rec;
    return {
      ...rest,
      has_password: password_hash !== null,
      views: await this.repo.readViews(rec),
      url: `/file/${rec.slug}`,
    };
  }

  /** Lists files: all for the admin, the key's own for key users. */
  async list(
    auth: Auth,
    q: { limit: number; offset: number; search?: string; s3_config_id?: string },
  ) {
    const all = await this.repo.list(auth.type === "admin" ? null : creatorOf(auth));
    const needle = q.search?.toLowerCase();
    const filtered = all.filter((f) =>
      (!needle || f.filename.toLowerCase().includes(needle) ||
        f.slug.toLowerCase().includes(needle) ||
        f.remark.toLowerCase().includes(needle)) &&
      (!q.s3_config_id || f.storage_config_id === q.s3_config_id)
    );
    const page = filtered.slice(q.offset, q.offset + q.limit);
    return {
      items: await Promise.all(page.map((f) => this.toView(f))),
      total: filtered.length,
      /** The bytes of every file the filter matched, on all pages. */
      total_size: filtered.reduce((sum, f) => sum + f.size, 0),
      limit: q.limit,
      offset: q.offset,
    };
  }

  /** One file for its creator or the admin. */
  async get(id: string, auth: Auth): Promise<FileView> {
    const { value } = await this.repo.get(id);
    if (!value) throw notFound("file_not_found");
    assertCanManage(auth, value.created_by);
    return await this.toView(value);
  }

  /** Edits remark, slug, expiry, max views (resetting the counter), password or proxy. */
  async update(id: string, input: FileUpdate, auth: Auth): Promise<FileView> {
    const entry = await this.repo.get(id);
    if (!entry.value) throw notFound("file_not_found");
    const prev = entry.value;
    assertCanManage(auth, prev.created_by);
    // The password of an end-to-end encrypted share is the access token of its key.
    if (prev.e2e && input.password !== undefined) {
      throw badRequest("e2e_not_editable", { field: "password" });
    }
    if (
      input.slug && input.slug !== prev.slug &&
      isReservedSlug(input.slug)
    ) {
      throw badRequest("slug_reserved");
    }
    if (input.slug && input.slug !== prev.slug && !await this.repo.tombstones.release(input.slug)) {
      throw slugHeldBySweptShare();
    }
    if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) {
      throw badRequest("expires_at_invalid");
    }
    const next: FileRecord = {
      ...prev,
      remark: input.remark ?? prev.remark,
      slug: input.slug ?? prev.slug,
      expires_at: input.expires_at === undefined
        ? prev.expires_at
        : input.expires_at && new Date(input.expires_at).toISOString(),
      max_views: input.max_views ?? prev.max_views,
      password_hash: input.password === undefined
        ? prev.password_hash
        : input.password
        ? await hashPassword(input.password, this.kdfIterations)
        : null,
      use_proxy: input.use_proxy ?? prev.use_proxy,
      updated_at: new Date().toISOString(),
    };
    const res = await this.repo.update(
      prev,
      next,
      entry.versionstamp,
      input.max_views !== undefined,
    );
    if (res === "slug") throw conflict("slug_taken");
    if (res === "conflict") throw conflict();
    return await this.toView(next);
  }

  /** Deletes files the caller may manage; with mode "both" the stored objects go too. */
  async batchDelete(ids: string[], mode: "both" | "record_only", auth: Auth) {
    let deleted = 0;
    const failed: { id: string; error: string }[] = [];
    for (const id of new Set(ids)) {
      const { value } = await this.repo.get(id);
      if (!value) {
        failed.push({ id, error: "file_not_found" });
        continue;
      }
      try {
        assertCanManage(auth, value.created_by);
      } catch {
        failed.push({ id, error: "not_creator" });
        continue;
      }
      await this.remove(value, mode === "both");
      deleted++;
    }
    return { deleted, failed };
  }

  /**
   * Deletes a share, and its stored object when asked and owned; with `tombstone` (expiry) its
   * slug keeps answering "expired".
   */
  protected async remove(rec: FileRecord, withObject: boolean, tombstone = false): Promise<void> {
    await this.repo.delete(rec, tombstone);
    // A share of a mount file points at the user's own object: it is never deleted with the share.
    if (!withObject || rec.owns_object === false) return;
    try {
      const cfg = await this.storage.getRecord(rec.storage_config_id);
      await (await this.storage.driverFor(cfg)).delete(rec.storage_path);
    } catch (err) {
      console.error(`Could not delete stored object of file ${rec.id}:`, err);
    }
  }

  /**
   * Deletes the expired and used-up file shares the caller manages, with their stored objects
   * (a mount file a share points at stays), and frees the slugs of the caller's swept shares
   * (their tombstones). Returns how many shares went.
   */
  async clearExpired(auth: Auth): Promise<{ deleted: number }> {
    const now = Date.now();
    let deleted = 0;
    const creator = auth.type === "admin" ? null : creatorOf(auth);
    for (const rec of await this.repo.list(creator)) {
      const expired = rec.expires_at !== null && Date.parse(rec.expires_at) <= now;
      const usedUp = rec.max_views > 0 && await this.repo.readViews(rec) >= rec.max_views;
      if (!expired && !usedUp) continue;
      const { value } = await this.repo.get(rec.id);
      if (!value) continue;
      await this.remove(value, true);
      deleted++;
    }
    await this.repo.tombstones.clear(creator ?? undefined);
    return { deleted };
  }

  /** Deletes expired files and their objects, leaving tombstones; returns how many. */
  async deleteExpired(nowMs: number): Promise<number> {
    let n = 0;
    for (const id of await this.repo.listExpiredIds(nowMs)) {
      const { value } = await this.repo.get(id);
      if (value) {
        await this.remove(value, true, true);
        n++;
      }
    }
    return n;
  }
}
