/**
 * The explorer's entries and the path rules they follow: names, joins, what counts as a
 * folder, and the virtual folders that mount paths make above the mounts.
 */
import type { Resolved } from "../services/mounts.ts";
import type { ListResult, ObjectInfo, StorageDriver } from "../storage/driver.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";
import type { FsEntry } from "../../shared/schemas/fs.ts";
import { badRequest } from "../errors.ts";
import { isPathWithinBase } from "../../shared/permissions.ts";
import { utf8ByteLength } from "../../shared/slug.ts";

export type { FsEntry };

/** The folder entry at virtual `path`; `mountId` marks a folder that is a mount itself. */
export function folderEntry(
  path: string,
  modified: string | null = null,
  mountId?: string,
): FsEntry {
  return {
    name: path.slice(path.lastIndexOf("/") + 1),
    path,
    type: "directory",
    size: 0,
    modified,
    mimetype: null,
    ...(mountId ? { mount_id: mountId } : {}),
  };
}

/** The file entry at virtual `path` for a stored object (its type guessed when not stored). */
export function fileEntry(path: string, o: Omit<ObjectInfo, "key">): FsEntry {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return {
    name,
    path,
    type: "file",
    size: o.size,
    modified: o.lastModified.toISOString(),
    mimetype: contentTypeFor(name, o.contentType),
    etag: o.etag,
  };
}

/** `name` inside folder `dir` (a virtual path). */
export function joinPath(dir: string, name: string): string {
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

/**
 * What is at `r`: an object, a folder, or nothing. Drivers that can tell without a listing do
 * (a listing page reads a local folder whole, and a WebDAV PUT asks twice).
 */
export async function lookup(
  driver: StorageDriver,
  r: Resolved,
): Promise<ObjectInfo | "folder" | null> {
  if (!r.key) return "folder";
  if (driver.lookup) return await driver.lookup(r.key);
  const head = await driver.head(r.key);
  if (head) return head;
  return await isFolder(driver, r) ? "folder" : null;
}

/** True when `r` is a folder: it holds something, or it was made empty (mkdir). */
export async function isFolder(driver: StorageDriver, r: Resolved): Promise<boolean> {
  if (!r.key) return true;
  if (driver.lookup) return await driver.lookup(r.key) === "folder";
  const page = await driver.list(`${r.key}/`, { limit: 1 });
  if (page.items.length > 0 || page.prefixes.length > 0) return true;
  // An empty folder lists as a prefix of its parent (raw prefix "a/name" → "a/name/").
  const siblings = await driver.list(r.key, { delimiter: "/", limit: 1000 });
  return siblings.prefixes.includes(`${r.key}/`);
}

/**
 * Folders made of the paths of `mounts` above or at `path` (the virtual part of the tree), or
 * null when `path` is inside a mount.
 */
export function virtualChildren(mounts: MountView[], path: string): FsEntry[] | null {
  const children = new Map<string, FsEntry>();
  let inside = false;
  for (const m of mounts.filter((m) => m.is_active)) {
    if (!isPathWithinBase(m.mount_path, path) || m.mount_path === path) continue;
    inside = true;
    const rest = m.mount_path.slice(path === "/" ? 1 : path.length + 1).split("/");
    const name = rest[0];
    const isMount = rest.length === 1;
    const child = joinPath(path, name);
    children.set(name, isMount ? folderEntry(child, m.updated_at, m.id) : folderEntry(child));
  }
  return inside || path === "/" ? [...children.values()] : null;
}

/** The entries of one listing page of folder `path` whose objects start with `prefix`. */
export function pageEntries(page: ListResult, prefix: string, path: string): FsEntry[] {
  return [
    ...page.prefixes.map((pre) =>
      folderEntry(joinPath(path, pre.slice(prefix.length).replace(/\/$/, "")))
    ),
    ...page.items.map((o) => fileEntry(joinPath(path, o.key.slice(prefix.length)), o)),
  ];
}
