/**
 * The mount explorer's filesystem: virtual paths (`/docs/a/b.txt`) resolved to a mount and a
 * storage key, with the caller's base path applied by MountService.resolve on every call.
 * Folders are key prefixes; the virtual root and the folders above mount paths are made of
 * the mounts themselves.
 */
import type { MountService, Resolved } from "../services/mounts.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { FileService } from "../shares/files.ts";
import type { SearchHooks } from "../search/search_types.ts";
import type { Auth } from "../services/auth.ts";
import type { StorageDriver } from "../storage/driver.ts";
import { writeParts } from "../storage/write_parts.ts";
import {
  checkName,
  fileEntry,
  folderEntry,
  type FsEntry,
  isFolder,
  joinPath,
  lookup,
  pageEntries,
  virtualChildren,
} from "./fs_entry.ts";
import { copyPath, movePath, renamePath, type TransferDeps } from "./fs_transfer.ts";
import { AppError, badRequest, conflict, fileTooLarge, notFound } from "../errors.ts";
import { hasPermission, normalizePath, Permission } from "../../shared/permissions.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import type { FileShareOptions } from "../../shared/schemas/files.ts";
import type { FsPage } from "../../shared/schemas/fs.ts";
import type { RequestedRange } from "../storage/ranges.ts";
import type { DirectoryCache } from "./directory_cache.ts";
import { resolveRequestedRange } from "../storage/ranges.ts";
import { limitStream } from "../lib/limit_stream.ts";
import { existingIn, limitParts, placeUpload, type UploadConflict } from "./fs_conflicts.ts";

const LINK_TTL_S = 3600;

export class FsService {
  constructor(
    private mounts: MountService,
    private storage: StorageConfigService,
    private files: FileService,
    /** The search index, told of every write (search.ts). */
    private search?: SearchHooks,
    /** The max upload size setting, in bytes: it covers mount uploads too. */
    private maxUploadBytes: () => Promise<number> = () => Promise.resolve(Infinity),
  ) {}

  /**
   * The upload limit (the "max upload size" setting, which covers every upload: shares, the
   * explorer and WebDAV). Throws 413 file_too_large when `size` is over it; returns it.
   */
  async checkUploadSize(size: number | undefined): Promise<number> {
    const max = await this.maxUploadBytes();
    if (size !== undefined && size > max) {
      throw fileTooLarge(max, size);
    }
    return max;
  }

  private listings: DirectoryCache | null = null;

  /** Caches mount listings in `cache` (each mount's cache_ttl); every write here drops them. */
  setDirectoryCache(cache: DirectoryCache): void {
    this.listings = cache;
  }

  /** Drops cached listings that a write at `r` made outside this service may have changed. */
  async invalidateListings(r: { mount: { storage_config_id: string }; key: string }) {
    await this.listings?.invalidate(r.mount.storage_config_id, r.key);
  }

  /** Tells the search index about a write at `r` made outside this service; never throws. */
  async indexWritten(r: Resolved): Promise<void> {
    await this.search?.pathWritten(r);
  }

  private async driverOf(r: Resolved, epoch?: "caller"): Promise<StorageDriver> {
    const configId = r.mount.storage_config_id;
    const driver = await this.storage.mountDriverFor(await this.storage.getRecord(configId));
    return this.listings ? this.listings.watch(driver, configId, epoch) : driver;
  }

  /**
   * Runs one write at `r` and indexes what it wrote. Cached listings of the config must go
   * stale on every instance, and so must cached searches: both follow the config's cache epoch,
   * which the index update moves in its own commit, so the write itself only drops this
   * instance's pages. When no index update ran (none configured, or the write failed), the
   * epoch moves here.
   */
  private async writeIndexed(
    r: Resolved,
    write: (driver: StorageDriver) => Promise<FsEntry>,
  ): Promise<FsEntry> {
    if (!this.search || !this.listings) {
      const entry = await write(await this.driverOf(r));
      await this.search?.pathWritten(r, entry);
      return entry;
    }
    let indexed = false;
    try {
      const entry = await write(await this.driverOf(r, "caller"));
      await this.search.pathWritten(r, entry);
      indexed = true;
      return entry;
    } finally {
      if (!indexed) await this.listings.invalidate(r.mount.storage_config_id, r.key);
    }
  }

  /**
   * One page of a folder: the virtual folders above mounts, or a mount's objects. Follow
   * `cursor` for the rest; a listing is never cut short.
   */
  async list(
    path: string,
    auth: Auth,
    opts: { cursor?: string; limit?: number; refresh?: boolean } = {},
  ): Promise<FsPage> {
    const p = normalizePath(path);
    if (p === null) throw badRequest("storage_path_invalid");
    const virtual = virtualChildren(await this.mounts.list(auth), p);
    if (virtual) return { path: p, items: virtual, cursor: null, is_virtual: true };
    // The folders above mounts are the way to a mount, so any mount bit lists them (a key that
    // may only upload finds its mount); what a mount holds needs the view bit.
    if (auth.type === "apikey" && !hasPermission(auth.permissions, Permission.MOUNT_VIEW)) {
      throw new AppError("api_key_permission_denied", 403);
    }
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
    const items = pageEntries(page, prefix, p);
    return { path: p, items, cursor: page.cursor, is_virtual: false, mount_id: r.mount.id };
  }

  /** A file's details; 404 when it does not exist. */
  async get(path: string, auth: Auth): Promise<FsEntry> {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    return await this.headEntry(await this.driverOf(r), r);
  }

  /** The file entry of `r` from the driver; 404 when it does not exist. */
  private async headEntry(driver: StorageDriver, r: Resolved): Promise<FsEntry> {
    const head = await driver.head(r.key);
    if (!head) throw notFound("file_not_found", { path: r.path });
    return fileEntry(r.path, head);
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
    onConflict: UploadConflict = "overwrite",
  ) {
    const folder = normalizePath(dir) ?? "/";
    const target = onConflict === "overwrite"
      ? joinPath(folder, checkName(name))
      : await placeUpload(folder, checkName(name), onConflict, (p) => this.stat(p, auth));
    const r = await this.mounts.resolve(target, auth);
    const max = await this.checkUploadSize(size);
    // A declared size was checked against the max just now, and every driver stores exactly the
    // declared size or fails (400 storage_size_mismatch): only a body of unknown length is counted.
    const limited = size === undefined && Number.isFinite(max)
      ? limitStream(body, max).stream
      : body;
    return await this.writeIndexed(r, async (driver) => {
      const put = await driver.put(r.key, limited, { contentType: contentTypeFor(name), size });
      if (!put.lastModified) return await this.headEntry(driver, r);
      return fileEntry(r.path, { ...put, lastModified: put.lastModified });
    });
  }

  /** The entries among `names` that exist in folder `dir` (files and folders), in order. */
  existing(dir: string, names: string[], auth: Auth): Promise<FsEntry[]> {
    const folder = normalizePath(dir);
    if (folder === null) throw badRequest("storage_path_invalid");
    return existingIn(folder, names.map(checkName), (p) => this.stat(p, auth));
  }

  /** Saves text content to a file (`fs/update`, docs/PRODUCT.md §7.8). */
  async update(path: string, content: string, auth: Auth) {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    return await this.writeIndexed(r, async (driver) => {
      await driver.put(r.key, content, { contentType: contentTypeFor(r.key) });
      return await this.headEntry(driver, r);
    });
  }

  /** Creates a folder; 409 target_exists when a file has that name, folder_exists for a folder. */
  async mkdir(path: string, auth: Auth): Promise<FsEntry> {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    const name = checkName(r.key.split("/").pop()!);
    return await this.writeIndexed(r, async (driver) => {
      if (await driver.head(r.key)) throw conflict("target_exists", { path: r.path });
      if (await isFolder(driver, r)) throw conflict("folder_exists", { path: r.path, name });
      await driver.createFolder(r.key);
      return folderEntry(r.path);
    });
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
        else if (await isFolder(driver, r)) await driver.deletePrefix(`${r.key}/`);
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
    return await renamePath(this.transferDeps(), oldPath, newPath, auth);
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
    if (virtualChildren(await this.mounts.list(auth), p)) return folderEntry(p);
    let r: Resolved;
    try {
      r = await this.mounts.resolve(p, auth);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    }
    if (!r.key) return folderEntry(p, r.mount.updated_at, r.mount.id);
    const found = await lookup(await this.driverOf(r), r);
    if (found === "folder") return folderEntry(p);
    return found ? fileEntry(p, found) : null;
  }

  private transferDeps(): TransferDeps {
    return {
      resolve: (path, auth) => this.mounts.resolve(path, auth),
      driverOf: (r) => this.driverOf(r),
      search: this.search,
    };
  }

  /**
   * Copies a file or a folder (everything below it, empty folders too, unless `shallow`) to a
   * path that must not exist. Throws 404, 409 target_exists, 400 rename_into_itself.
   */
  async copy(fromPath: string, toPath: string, auth: Auth, opts: { shallow?: boolean } = {}) {
    return await copyPath(this.transferDeps(), fromPath, toPath, auth, opts);
  }

  /** Moves a file or a folder to a path that must not exist, in one mount or across mounts. */
  async move(fromPath: string, toPath: string, auth: Auth) {
    return await movePath(this.transferDeps(), fromPath, toPath, auth);
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
    const target = joinPath(normalizePath(dir) ?? "/", checkName(name));
    const r = await this.mounts.resolve(target, auth);
    const max = await this.checkUploadSize(undefined);
    return await this.writeIndexed(r, async (driver) => {
      await writeParts(driver, r.key, limitParts(parts, max), contentTypeFor(name));
      return await this.headEntry(driver, r);
    });
  }
}
