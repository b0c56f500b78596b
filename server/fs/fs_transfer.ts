/**
 * Copying and moving files and folders in the explorer, within one storage (the store copies
 * or moves) or across storages (the bytes stream through Cubby).
 */
import type { Resolved } from "../services/mounts.ts";
import type { SearchHooks } from "../search/search_types.ts";
import type { Auth } from "../services/auth.ts";
import type { StorageDriver } from "../storage/driver.ts";
import { badRequest, conflict, notFound } from "../errors.ts";
import { isPathWithinBase } from "../../shared/permissions.ts";
import { isFolder } from "./fs_entry.ts";

/** What a transfer needs from the filesystem service. */
export interface TransferDeps {
  resolve(path: string, auth: Auth): Promise<Resolved>;
  driverOf(r: Resolved): Promise<StorageDriver>;
  search?: SearchHooks;
}

/** Tells the search index that `from` moved to `to` (a file, or a folder and its contents). */
export async function reindexMoved(
  search: SearchHooks | undefined,
  from: Resolved,
  to: Resolved,
): Promise<void> {
  await search?.pathRemoved(from);
  await search?.pathWritten(to);
}

/** Renames or moves a file or folder within one mount; 409 when the target exists. */
export async function renamePath(
  deps: TransferDeps,
  oldPath: string,
  newPath: string,
  auth: Auth,
) {
  const from = await deps.resolve(oldPath, auth);
  const to = await deps.resolve(newPath, auth);
  if (!from.key || !to.key) throw badRequest("storage_path_invalid");
  if (from.mount.id !== to.mount.id) throw badRequest("cross_mount_rename");
  if (isPathWithinBase(to.path, from.path)) throw badRequest("rename_into_itself");
  const driver = await deps.driverOf(from);
  if (await driver.head(to.key) || await isFolder(driver, to)) {
    throw conflict("target_exists", { path: to.path });
  }
  if (await driver.head(from.key)) {
    await driver.move(from.key, to.key);
    await reindexMoved(deps.search, from, to);
    return { path: to.path, moved: 1 };
  }
  if (!await isFolder(driver, from)) throw notFound("file_not_found", { path: from.path });
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
  await reindexMoved(deps.search, from, to);
  return { path: to.path, moved };
}

/** Resolves a copy or move: both ends, their drivers; 400 into itself, 409 if `to` exists. */
async function transferEnds(deps: TransferDeps, fromPath: string, toPath: string, auth: Auth) {
  const from = await deps.resolve(fromPath, auth);
  const to = await deps.resolve(toPath, auth);
  if (!from.key || !to.key) throw badRequest("storage_path_invalid");
  if (isPathWithinBase(to.path, from.path)) throw badRequest("rename_into_itself");
  const [src, dst] = [await deps.driverOf(from), await deps.driverOf(to)];
  if (await dst.head(to.key) || await isFolder(dst, to)) {
    throw conflict("target_exists", { path: to.path });
  }
  const sameStore = from.mount.storage_config_id === to.mount.storage_config_id;
  const isFile = (await src.head(from.key)) !== null;
  if (!isFile && !await isFolder(src, from)) {
    throw notFound("file_not_found", { path: from.path });
  }
  return { from, to, src, dst, sameStore, isFile };
}

/**
 * Copies a file or a folder (everything below it, empty folders too, unless `shallow`) to a
 * path that must not exist. Within one storage the store copies; across storages the bytes
 * stream through Cubby. Throws 404, 409 target_exists, 400 rename_into_itself.
 */
export async function copyPath(
  deps: TransferDeps,
  fromPath: string,
  toPath: string,
  auth: Auth,
  opts: { shallow?: boolean } = {},
) {
  const { from, to, src, dst, sameStore, isFile } = await transferEnds(
    deps,
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
    await deps.search?.pathWritten(to);
    return { path: to.path, copied: 1 };
  }
  await dst.createFolder(to.key);
  let copied = 0;
  if (opts.shallow) {
    await deps.search?.pathWritten(to, { type: "directory" });
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
  await deps.search?.pathWritten(to, { type: "directory" });
  return { path: to.path, copied };
}

/**
 * Moves a file or a folder (empty sub-folders included) to a path that must not exist, in
 * one mount or across mounts (copy, then delete). Throws like `copyPath`.
 */
export async function movePath(deps: TransferDeps, fromPath: string, toPath: string, auth: Auth) {
  const { from, to, src, sameStore, isFile } = await transferEnds(deps, fromPath, toPath, auth);
  if (!sameStore) {
    const res = await copyPath(deps, fromPath, toPath, auth);
    if (isFile) await src.delete(from.key);
    else await src.deletePrefix(`${from.key}/`);
    await deps.search?.pathRemoved(from);
    return { path: res.path, moved: res.copied };
  }
  if (isFile) {
    await src.move(from.key, to.key);
    await reindexMoved(deps.search, from, to);
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
  await reindexMoved(deps.search, from, to);
  return { path: to.path, moved };
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
