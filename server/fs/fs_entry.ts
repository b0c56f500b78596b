/**
 * The explorer's entries and the path rules they follow: names, joins, what counts as a
 * folder, and the virtual folders that mount paths make above the mounts.
 */
import type { Resolved } from "../services/mounts.ts";
import type { ListResult, StorageDriver } from "../storage/driver.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";
import { badRequest } from "../errors.ts";
import { isPathWithinBase } from "../../shared/permissions.ts";
import { utf8ByteLength } from "../../shared/slug.ts";

/** One file or folder as the explorer shows it. */
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

/** True when `r` is a folder: it holds something, or it was made empty (mkdir). */
export async function isFolder(driver: StorageDriver, r: Resolved): Promise<boolean> {
  if (!r.key) return true;
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
    children.set(name, {
      name,
      path: joinPath(path, name),
      type: "directory",
      size: 0,
      modified: isMount ? m.updated_at : null,
      mimetype: null,
      ...(isMount ? { mount_id: m.id } : {}),
    });
  }
  return inside || path === "/" ? [...children.values()] : null;
}

/** The entries of one listing page of folder `path` whose objects start with `prefix`. */
export function pageEntries(page: ListResult, prefix: string, path: string): FsEntry[] {
  return [
    ...page.prefixes.map((pre) => {
      const name = pre.slice(prefix.length).replace(/\/$/, "");
      return {
        name,
        path: joinPath(path, name),
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
        path: joinPath(path, name),
        type: "file" as const,
        size: o.size,
        modified: o.lastModified.toISOString(),
        mimetype: contentTypeFor(name, o.contentType),
        etag: o.etag,
      };
    }),
  ];
}
