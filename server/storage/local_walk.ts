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

/**
 * The most entries one page holds when asked. Every page reads its folder whole to sort it, so
 * a listing of a large folder in pages of 1000 would read it once per thousand entries.
 */
const MAX_LOCAL_PAGE = 10_000;

/** One page of keys under a raw prefix; throws 400 on a bad prefix or cursor. */
export async function listLocal(
  root: LocalRoot,
  prefix: string,
  opts: ListOptions = {},
): Promise<ListResult> {
  validatePrefix(prefix);
  const limit = clampLimit(opts.limit, MAX_LOCAL_PAGE);
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

/** Stats of files taken ahead of the one being yielded (each stat is a trip to a thread). */
const STAT_AHEAD = 8;

/**
 * Yields the objects (and, when not recursive, the sub-prefixes) under `dir` in S3 key order,
 * skipping everything up to and including the key `after`. Only entries past `after` are
 * sorted, and the files among them are stat'ed a few at a time, in order, as they are read.
 */
async function* walkSorted(
  root: string,
  dir: string,
  dirKey: string,
  leaf: string,
  after: string | null,
  recursive: boolean,
): AsyncGenerator<WalkEntry> {
  const entries: { key: string; sortKey: string; isDir: boolean; name: string }[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.name.startsWith(leaf)) continue;
      if (dirKey === "" && e.name.startsWith(RESERVED_PREFIX)) continue;
      if (!e.isSymlink && !e.isFile && !e.isDirectory) continue;
      const key = dirKey + e.name;
      const sortKey = e.isDirectory ? key + "/" : key;
      // Wholly before the cursor (a folder holding it is walked into).
      if (after !== null && sortKey <= after && !after.startsWith(sortKey)) continue;
      if (e.isSymlink && !(await isFileInside(root, join(dir, e.name)))) continue; // no linked folders
      entries.push({ key, sortKey, isDir: e.isDirectory, name: e.name });
    }
  } catch (err) {
    ignoreMissing(err);
    return;
  }
  entries.sort((a, b) => a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0);
  const base = dir.endsWith("/") ? dir : dir + "/";
  // Stats under way for files at or after the current entry, by index; never rejected unseen.
  const stats = new Map<number, Promise<Deno.FileInfo | null>>();
  const statOf = (i: number) => {
    const p = Deno.stat(base + entries[i].name).then((info) => info, (err) => {
      ignoreMissing(err); // deleted while listing
      return null;
    });
    p.catch(() => {}); // awaited when its entry comes up; dropped if the listing stops first
    return p;
  };
  let ahead = 0; // every file before this index has its stat under way or done
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.isDir) {
      if (!recursive) {
        if (after === null || e.sortKey > after) yield { kind: "prefix", key: e.sortKey };
        continue;
      }
      yield* walkSorted(root, base + e.name, e.sortKey, "", after, true);
      continue;
    }
    const pending = stats.get(i);
    stats.delete(i);
    if (after !== null && e.key <= after) continue;
    for (
      ahead = Math.max(ahead, i + 1);
      ahead < entries.length && stats.size < STAT_AHEAD;
      ahead++
    ) {
      if (!entries[ahead].isDir) stats.set(ahead, statOf(ahead));
    }
    const info = await (pending ?? statOf(i));
    if (info?.isFile) yield { kind: "file", key: e.key, info };
  }
}
