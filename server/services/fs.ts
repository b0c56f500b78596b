/**
 * The mount explorer's filesystem: virtual paths (`/docs/a/b.txt`) resolved to a mount and a
 * storage key, with the caller's base path applied by MountService.resolve on every call.
 * Folders are key prefixes; the virtual root and the folders above mount paths are made of
 * the mounts themselves.
 */
import type { MountService, Resolved } from "./mounts.ts";
import type { StorageConfigService } from "./storage_configs.ts";
import type { FileService } from "./files.ts";
import type { SearchHooks } from "./search.ts";
import type { Auth } from "./auth.ts";
import type { CompletedPart, StorageDriver } from "../storage/driver.ts";
import { AppError, badRequest, conflict, notFound } from "../errors.ts";
import { isPathWithinBase, normalizePath } from "../../shared/permissions.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import type { FileShareOptions } from "../../shared/schemas/files.ts";
import type { RequestedRange } from "../storage/ranges.ts";
import type { DirectoryCache } from "./directory_cache.ts";
import { resolveRequestedRange } from "../storage/ranges.ts";
import { utf8ByteLength } from "../../shared/slug.ts";

export type FsEntry = {
  name: string;
  path: string;
  type: "file" | "directory";
  size: number;
  modified: string | null;
  mimetype: string | null;
  /** Set on the folders that are mounts themselves. */
  mount_id?: string;
  /** The stored object's ETag (files). */
  etag?: string;
};

const LINK_TTL_S = 3600;

function join(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** A file or folder name: no slashes, no `.`/`..`, no NUL or backslash, at most 255 bytes. */
export function checkName(name: string): string {
  const n = name.trim();
  if (!n || n === "." || n === ".." || /[\/\\\0]/.test(n)) {
    throw badRequest("storage_path_invalid", { name });
  }
  if (utf8ByteLength(n) > 255) throw badRequest("name_too_long", { name });
  return n;
}

export class FsService {
  constructor(
    private mounts: MountService,
    private storage: StorageConfigService,
    private files: FileService,
    /** The search index, told of every write (search.ts). */
    private search?: SearchHooks,
  ) {}

  private listings: DirectoryCache | null = null;

  /** Caches mount listings in `cache` (each mount's cache_ttl); every write here drops them. */
  setDirectoryCache(cache: DirectoryCache): void {
    this.listings = cache;
  }

  /** Drops cached listings that a write at `r` made outside this service may have changed. */
  invalidateListings(r: { mount: { storage_config_id: string }; key: string }): void {
    this.listings?.invalidate(r.mount.storage_config_id, r.key);
  }

  /** Tells the search index about a write at `r` made outside this service; never throws. */
  async indexWritten(r: Resolved): Promise<void> {
    await this.search?.pathWritten(r);
  }

  private async driverOf(r: Resolved): Promise<StorageDriver> {
    const configId = r.mount.storage_config_id;
    const driver = await this.storage.mountDriverFor(await this.storage.getRecord(configId));
    return this.listings ? this.listings.watch(driver, configId) : driver;
  }

  /** Folders made of mount paths above or at `path` (the virtual part of the tree). */
  private async virtualChildren(path: string, auth: Auth): Promise<FsEntry[] | null> {
    const mounts = await this.mounts.list(auth);
    const children = new Map<string, FsEntry>();
    let inside = false;
    for (const m of mounts.filter((m) => m.is_active)) {
      if (!isPathWithinBase(m.mount_path, path) || m.mount_path === path) continue;
      inside = true;
      const rest = m.mount_path.slice(path === "/" ? 1 : path.length + 1).split("/");
      const name = rest[0];
      const isMount = rest.length === 1;
      children.set(name, {
        name,
        path: join(path, name),
        type: "directory",
        size: 0,
        modified: isMount ? m.updated_at : null,
        mimetype: null,
        ...(isMount ? { mount_id: m.id } : {}),
      });
    }
    return inside || path === "/" ? [...children.values()] : null;
  }

  /**
   * One page of a folder: the virtual folders above mounts, or a mount's objects. Follow
   * `cursor` for the rest; a listing is never cut short.
   */
  async list(
    path: string,
    auth: Auth,
    opts: { cursor?: string; limit?: number; refresh?: boolean } = {},
  ) {
    const p = normalizePath(path);
    if (p === null) throw badRequest("storage_path_invalid");
    const virtual = await this.virtualChildren(p, auth);
    if (virtual) return { path: p, items: virtual, cursor: null, is_virtual: true };
    const r = await this.mounts.resolve(p, auth);
    const prefix = r.key ? `${r.key}/` : "";
    const load = async () =>
      await (await this.driverOf(r)).list(prefix, {
        delimiter: "/",
        cursor: opts.cursor,
        limit: opts.limit,
      });
    const page = this.listings
      ? await this.listings.page(r.mount, prefix, opts, load)
      : await load();
    const items: FsEntry[] = [
      ...page.prefixes.map((pre) => {
        const name = pre.slice(prefix.length).replace(/\/$/, "");
        return {
          name,
          path: join(p, name),
          type: "directory" as const,
          size: 0,
          modified: null,
          mimetype: null,
        };
      }),
      ...page.items.map((o) => {
        const name = o.key.slice(prefix.length);
        return {
          name,
          path: join(p, name),
          type: "file" as const,
          size: o.size,
          modified: o.lastModified.toISOString(),
          mimetype: contentTypeFor(name, o.contentType),
          etag: o.etag,
        };
      }),
    ];
    return { path: p, items, cursor: page.cursor, is_virtual: false, mount_id: r.mount.id };
  }

  /** A file's details; 404 when it does not exist. */
  async get(path: string, auth: Auth): Promise<FsEntry> {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    const head = await (await this.driverOf(r)).head(r.key);
    if (!head) throw notFound("file_not_found", { path: r.path });
    const name = r.key.split("/").pop()!;
    return {
      name,
      path: r.path,
      type: "file",
      size: head.size,
      modified: head.lastModified.toISOString(),
      mimetype: contentTypeFor(name, head.contentType),
      etag: head.etag,
    };
  }

  /** Streams a file, or one range of it. */
  async download(path: string, auth: Auth, range?: RequestedRange) {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    const driver = await this.driverOf(r);
    const head = await driver.head(r.key);
    if (!head) throw notFound("file_not_found", { path: r.path });
    const object = await driver.get(r.key, { range: resolveRequestedRange(range, head.size) });
    const name = r.key.split("/").pop()!;
    return { object, name, contentType: contentTypeFor(name, head.contentType) };
  }

  /** Writes a file from a stream into folder `dir` (or at `path` when `name` is omitted). */
  async upload(
    dir: string,
    name: string,
    body: ReadableStream<Uint8Array>,
    auth: Auth,
    size?: number,
  ) {
    const target = join(normalizePath(dir) ?? "/", checkName(name));
    const r = await this.mounts.resolve(target, auth);
    const driver = await this.driverOf(r);
    await driver.put(r.key, body, { contentType: contentTypeFor(name), size });
    const entry = await this.get(target, auth);
    await this.search?.pathWritten(r, entry);
    return entry;
  }

  /** Saves text content to a file (spec "fs/update"). */
  async update(path: string, content: string, auth: Auth) {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    await (await this.driverOf(r)).put(r.key, content, { contentType: contentTypeFor(r.key) });
    const entry = await this.get(r.path, auth);
    await this.search?.pathWritten(r, entry);
    return entry;
  }

  /** True when `r` is a folder: it holds something, or it was made empty (mkdir). */
  private async isFolder(driver: StorageDriver, r: Resolved): Promise<boolean> {
    if (!r.key) return true;
    const page = await driver.list(`${r.key}/`, { limit: 1 });
    if (page.items.length > 0 || page.prefixes.length > 0) return true;
    // An empty folder lists as a prefix of its parent (raw prefix "a/name" → "a/name/").
    const siblings = await driver.list(r.key, { delimiter: "/", limit: 1000 });
    return siblings.prefixes.includes(`${r.key}/`);
  }

  /** Creates a folder; 409 when a file has that name. */
  async mkdir(path: string, auth: Auth): Promise<FsEntry> {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    checkName(r.key.split("/").pop()!);
    const driver = await this.driverOf(r);
    if (await driver.head(r.key)) throw conflict("target_exists", { path: r.path });
    await driver.createFolder(r.key);
    await this.search?.pathWritten(r, { type: "directory" });
    return {
      name: r.key.split("/").pop()!,
      path: r.path,
      type: "directory",
      size: 0,
      modified: null,
      mimetype: null,
    };
  }

  /** Deletes files and folders; returns what failed with why. */
  async remove(paths: string[], auth: Auth) {
    let deleted = 0;
    const failed: { path: string; error: string }[] = [];
    for (const path of paths) {
      try {
        const r = await this.mounts.resolve(path, auth);
        if (!r.key) throw badRequest("storage_path_invalid");
        const driver = await this.driverOf(r);
        if (await driver.head(r.key)) await driver.delete(r.key);
        else if (await this.isFolder(driver, r)) await driver.deletePrefix(`${r.key}/`);
        else throw notFound("file_not_found", { path: r.path });
        await this.search?.pathRemoved(r);
        deleted++;
      } catch (err) {
        failed.push({ path, error: err instanceof AppError ? err.code : "internal" });
      }
    }
    return { deleted, failed };
  }

  /** Renames or moves a file or folder within one mount; 409 when the target exists. */
  async rename(oldPath: string, newPath: string, auth: Auth) {
    const from = await this.mounts.resolve(oldPath, auth);
    const to = await this.mounts.resolve(newPath, auth);
    if (!from.key || !to.key) throw badRequest("storage_path_invalid");
    if (from.mount.id !== to.mount.id) throw badRequest("cross_mount_rename");
    if (isPathWithinBase(to.path, from.path)) throw badRequest("rename_into_itself");
    const driver = await this.driverOf(from);
    if (await driver.head(to.key) || await this.isFolder(driver, to)) {
      throw conflict("target_exists", { path: to.path });
    }
    if (await driver.head(from.key)) {
      await driver.move(from.key, to.key);
      await this.reindexMoved(from, to);
      return { path: to.path, moved: 1 };
    }
    if (!await this.isFolder(driver, from)) throw notFound("file_not_found", { path: from.path });
    let moved = 0;
    let cursor: string | null = null;
    do {
      // Each page starts again from the front: moved keys have left the prefix.
      const page = await driver.list(`${from.key}/`, { limit: 1000 });
      for (const o of page.items) {
        await driver.move(o.key, to.key + o.key.slice(from.key.length));
        moved++;
      }
      cursor = page.cursor;
    } while (cursor);
    await this.reindexMoved(from, to);
    return { path: to.path, moved };
  }

  /** Tells the search index that `from` moved to `to` (a file, or a folder and its contents). */
  private async reindexMoved(from: Resolved, to: Resolved): Promise<void> {
    await this.search?.pathRemoved(from);
    await this.search?.pathWritten(to);
  }

  /** A short-lived direct link to a file (presigned on S3, signed Cubby URL on local disks). */
  async fileLink(path: string, auth: Auth, opts: { forceDownload: boolean; expiresIn?: number }) {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    const driver = await this.driverOf(r);
    if (!await driver.head(r.key)) throw notFound("file_not_found", { path: r.path });
    const expiresIn = Math.min(Math.max(opts.expiresIn ?? LINK_TTL_S, 60), 7 * 24 * 3600);
    const name = r.key.split("/").pop()!;
    const url = await driver.presignGet(r.key, {
      expiresIn,
      filename: name,
      contentType: contentTypeFor(name),
      download: opts.forceDownload,
    });
    return { url, expires_in: expiresIn };
  }

  /** Makes a file share of a mount file (the share does not own the file). */
  async createShare(path: string, opts: FileShareOptions, auth: Auth) {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    return await this.files.shareObject(
      await this.storage.getRecord(r.mount.storage_config_id),
      r.key,
      opts,
      auth,
    );
  }

  /**
   * A file's or folder's details, or null when nothing is there. Virtual folders and mount
   * roots are folders. Throws 400 for invalid paths and 403 outside the key's base path.
   */
  async stat(path: string, auth: Auth): Promise<FsEntry | null> {
    const p = normalizePath(path);
    if (p === null) throw badRequest("storage_path_invalid");
    const name = p.slice(p.lastIndexOf("/") + 1);
    const folder = (modified: string | null, mountId?: string): FsEntry => ({
      name,
      path: p,
      type: "directory",
      size: 0,
      modified,
      mimetype: null,
      ...(mountId ? { mount_id: mountId } : {}),
    });
    if (await this.virtualChildren(p, auth)) return folder(null);
    let r: Resolved;
    try {
      r = await this.mounts.resolve(p, auth);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    }
    if (!r.key) return folder(r.mount.updated_at, r.mount.id);
    const driver = await this.driverOf(r);
    const head = await driver.head(r.key);
    if (head) {
      return {
        name,
        path: p,
        type: "file",
        size: head.size,
        modified: head.lastModified.toISOString(),
        mimetype: contentTypeFor(name, head.contentType),
        etag: head.etag,
      };
    }
    return await this.isFolder(driver, r) ? folder(null) : null;
  }

  /** Resolves a copy or move: both ends, their drivers; 400 into itself, 409 if `to` exists. */
  private async transferEnds(fromPath: string, toPath: string, auth: Auth) {
    const from = await this.mounts.resolve(fromPath, auth);
    const to = await this.mounts.resolve(toPath, auth);
    if (!from.key || !to.key) throw badRequest("storage_path_invalid");
    if (isPathWithinBase(to.path, from.path)) throw badRequest("rename_into_itself");
    const [src, dst] = [await this.driverOf(from), await this.driverOf(to)];
    if (await dst.head(to.key) || await this.isFolder(dst, to)) {
      throw conflict("target_exists", { path: to.path });
    }
    const sameStore = from.mount.storage_config_id === to.mount.storage_config_id;
    const isFile = (await src.head(from.key)) !== null;
    if (!isFile && !await this.isFolder(src, from)) {
      throw notFound("file_not_found", { path: from.path });
    }
    return { from, to, src, dst, sameStore, isFile };
  }

  /**
   * Copies a file or a folder (everything below it, empty folders too, unless `shallow`) to a
   * path that must not exist. Within one storage the store copies; across storages the bytes
   * stream through Cubby. Throws 404, 409 target_exists, 400 rename_into_itself.
   */
  async copy(fromPath: string, toPath: string, auth: Auth, opts: { shallow?: boolean } = {}) {
    const { from, to, src, dst, sameStore, isFile } = await this.transferEnds(
      fromPath,
      toPath,
      auth,
    );
    const copyFile = async (a: string, b: string) => {
      if (sameStore) return await src.copy(a, b);
      const obj = await src.get(a);
      await dst.put(b, obj.body, { size: obj.size, contentType: obj.contentType });
    };
    if (isFile) {
      await copyFile(from.key, to.key);
      await this.search?.pathWritten(to);
      return { path: to.path, copied: 1 };
    }
    await dst.createFolder(to.key);
    let copied = 0;
    if (opts.shallow) {
      await this.search?.pathWritten(to, { type: "directory" });
      return { path: to.path, copied };
    }
    for await (const e of walkTree(src, from.key)) {
      const target = to.key + e.key.slice(from.key.length);
      if (e.folder) await dst.createFolder(target);
      else {
        await copyFile(e.key, target);
        copied++;
      }
    }
    await this.search?.pathWritten(to, { type: "directory" });
    return { path: to.path, copied };
  }

  /**
   * Moves a file or a folder (empty sub-folders included) to a path that must not exist, in
   * one mount or across mounts (copy, then delete). Throws like `copy`.
   */
  async move(fromPath: string, toPath: string, auth: Auth) {
    const { from, to, src, sameStore, isFile } = await this.transferEnds(fromPath, toPath, auth);
    if (!sameStore) {
      const res = await this.copy(fromPath, toPath, auth);
      if (isFile) await src.delete(from.key);
      else await src.deletePrefix(`${from.key}/`);
      await this.search?.pathRemoved(from);
      return { path: res.path, moved: res.copied };
    }
    if (isFile) {
      await src.move(from.key, to.key);
      await this.reindexMoved(from, to);
      return { path: to.path, moved: 1 };
    }
    const entries: { key: string; folder: boolean }[] = [];
    for await (const e of walkTree(src, from.key)) entries.push(e);
    await src.createFolder(to.key);
    let moved = 0;
    for (const e of entries) {
      const target = to.key + e.key.slice(from.key.length);
      if (e.folder) await src.createFolder(target);
      else {
        await src.move(e.key, target);
        moved++;
      }
    }
    await src.deletePrefix(`${from.key}/`);
    await this.reindexMoved(from, to);
    return { path: to.path, moved };
  }

  /**
   * Writes a file as a multipart upload, one part per item of `parts` (every part but the
   * last at least 5 MiB), so a stream of unknown length never sits in memory whole. The
   * upload is aborted when anything fails.
   */
  async uploadMultipart(
    dir: string,
    name: string,
    parts: AsyncIterable<Uint8Array>,
    auth: Auth,
  ): Promise<FsEntry> {
    const target = join(normalizePath(dir) ?? "/", checkName(name));
    const r = await this.mounts.resolve(target, auth);
    const driver = await this.driverOf(r);
    const uploadId = await driver.createMultipart(r.key, { contentType: contentTypeFor(name) });
    const done: CompletedPart[] = [];
    try {
      for await (const part of parts) {
        const n = done.length + 1;
        done.push({
          partNumber: n,
          etag: (await driver.uploadPart(r.key, uploadId, n, part)).etag,
        });
      }
      if (done.length === 0) {
        const { etag } = await driver.uploadPart(r.key, uploadId, 1, new Uint8Array(0));
        done.push({ partNumber: 1, etag });
      }
      await driver.completeMultipart(r.key, uploadId, done);
    } catch (err) {
      await driver.abortMultipart(r.key, uploadId).catch(() => {});
      throw err;
    }
    const entry = await this.get(target, auth);
    await this.search?.pathWritten(r, entry);
    return entry;
  }
}

/** Every folder and file below `key`, folder by folder (S3 folder markers left out). */
async function* walkTree(
  driver: StorageDriver,
  key: string,
): AsyncGenerator<{ key: string; folder: boolean }> {
  const queue = [key];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    let cursor: string | null = null;
    do {
      const page = await driver.list(`${dir}/`, { delimiter: "/", cursor });
      for (const pre of page.prefixes) {
        const k = pre.slice(0, -1);
        yield { key: k, folder: true };
        queue.push(k);
      }
      for (const o of page.items) if (!o.key.endsWith("/")) yield { key: o.key, folder: false };
      cursor = page.cursor;
    } while (cursor);
  }
}
