/**
 * Listing the local driver's keys in S3 order. A folder sorts as `name/`, so walking each
 * folder's sorted entries depth-first yields full keys in key order; the cursor is the last
 * key returned, and whole subtrees before it are never read. Reserved `.cubby-*` names,
 * symlinked folders and symlinks that resolve outside the root are skipped.
 */
import { join } from "node:path";
import { AppError } from "../errors.ts";
import {
  clampLimit,
  type ListOptions,
  type ListResult,
  type ObjectInfo,
  validatePrefix,
} from "./driver.ts";
import { decodeCursor, encodeCursor } from "./driver_wire.ts";
import { ignoreMissing } from "./local_errors.ts";
import { infoOf } from "./local_files.ts";
import { isFileInside, type LocalRoot, RESERVED_PREFIX } from "./local_paths.ts";

/** One page of keys under a raw prefix; throws 400 on a bad prefix or cursor. */
export async function listLocal(
  root: LocalRoot,
  prefix: string,
  opts: ListOptions = {},
): Promise<ListResult> {
  validatePrefix(prefix);
  const limit = clampLimit(opts.limit);
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  if (after !== null && typeof after !== "string") {
    throw new AppError("validation_failed", 400, { field: "cursor" });
  }
  const real = await root.real();
  const slash = prefix.lastIndexOf("/");
  const dirKey = slash < 0 ? "" : prefix.slice(0, slash + 1);
  const dir = dirKey ? await root.pathOf(dirKey.slice(0, -1)) : real;
  if (dirKey) await root.assertInside(dir, prefix);
  const walker = walkSorted(real, dir, dirKey, prefix.slice(slash + 1), after, !opts.delimiter);
  const items: ObjectInfo[] = [];
  const prefixes: string[] = [];
  let last: string | null = null;
  let more = false;
  for await (const entry of walker) {
    if (items.length + prefixes.length === limit) {
      more = true;
      break;
    }
    if (entry.kind === "prefix") prefixes.push(entry.key);
    else items.push(infoOf(entry.key, entry.info));
    last = entry.key;
  }
  await walker.return(undefined);
  return { items, prefixes, cursor: more && last !== null ? encodeCursor(last) : null };
}

type WalkEntry = { kind: "file"; key: string; info: Deno.FileInfo } | {
  kind: "prefix";
  key: string;
};

/**
 * Yields the objects (and, when not recursive, the sub-prefixes) under `dir` in S3 key order,
 * skipping everything up to and including the key `after`.
 */
async function* walkSorted(
  root: string,
  dir: string,
  dirKey: string,
  leaf: string,
  after: string | null,
  recursive: boolean,
): AsyncGenerator<WalkEntry> {
  const entries: { key: string; sortKey: string; isDir: boolean; path: string }[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.name.startsWith(leaf)) continue;
      if (dirKey === "" && e.name.startsWith(RESERVED_PREFIX)) continue;
      const path = join(dir, e.name);
      if (e.isSymlink && !(await isFileInside(root, path))) continue; // no linked folders
      if (!e.isSymlink && !e.isFile && !e.isDirectory) continue;
      const key = dirKey + e.name;
      entries.push({ key, sortKey: e.isDirectory ? key + "/" : key, isDir: e.isDirectory, path });
    }
  } catch (err) {
    ignoreMissing(err);
    return;
  }
  entries.sort((a, b) => a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0);
  for (const e of entries) {
    if (after !== null && e.sortKey <= after && !after.startsWith(e.sortKey)) continue;
    if (e.isDir) {
      if (!recursive) {
        if (after === null || e.sortKey > after) yield { kind: "prefix", key: e.sortKey };
        continue;
      }
      yield* walkSorted(root, e.path, e.sortKey, "", after, true);
      continue;
    }
    if (after !== null && e.key <= after) continue;
    try {
      const info = await Deno.stat(e.path);
      if (info.isFile) yield { kind: "file", key: e.key, info };
    } catch (err) {
      ignoreMissing(err); // deleted while listing
    }
  }
}
