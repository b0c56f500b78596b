/**
 * How a search query is answered over the name index of search_repo.ts. A query picks, among
 * up to six of its grams, the one with the shortest posting list by reading them in lockstep
 * until the first runs out; the candidates are then checked against the whole name. Only the
 * key ranges the caller may see are read: each active visible mount, narrowed to the key's base
 * path and the scope.
 */
import type { SearchEntry, SearchRepo } from "./search_repo.ts";
import { foldName, gramsOf, nameOfKey } from "./search_repo.ts";
import type { Auth } from "../services/auth.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { isPathWithinBase, normalizePath } from "../../shared/permissions.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import type { SearchInput, SearchItem } from "./search_types.ts";

/** A key range the caller may see: a mount, the folder below which to look, and that folder. */
export type Range = { mount: MountView; dir: string; self: boolean };
/** A matching key in range `r`. */
export type Match = { r: number; key: string };

const RACED_GRAMS = 6;
const RACE_STEP = 256;

/**
 * The ranges to read: the visible active mounts, cut to the scope and the key's base path.
 * Throws 400 for a bad path, 403 outside the base path, 404 for an unknown mount.
 */
export function rangesFor(visible: MountView[], input: SearchInput, auth: Auth): Range[] {
  const mounts = visible.filter((m) => m.is_active);
  const base = auth.type === "apikey" ? auth.basicPath : "/";
  let root = "/";
  let self = true;
  if (input.scope === "mount") {
    const m = mounts.find((m) => m.id === input.mountId);
    if (!m) throw notFound("mount_not_found");
    root = m.mount_path;
  } else if (input.scope === "directory") {
    const p = normalizePath(input.path ?? "");
    if (p === null) throw badRequest("storage_path_invalid");
    root = p;
    self = false;
  }
  if (!isPathWithinBase(root, base)) {
    if (!isPathWithinBase(base, root)) throw new AppError("forbidden", 403, { path: root });
    [root, self] = [base, true];
  }
  const ranges: Range[] = [];
  for (const m of mounts) {
    if (isPathWithinBase(m.mount_path, root)) ranges.push({ mount: m, dir: "", self: false });
    else if (isPathWithinBase(root, m.mount_path)) {
      ranges.push({ mount: m, dir: root.slice(m.mount_path.length + 1), self });
    }
  }
  return ranges;
}

/** Every match in range order, then key order. */
export async function findMatches(repo: SearchRepo, q: string, ranges: Range[]): Promise<Match[]> {
  const found = new Map<string, Match>();
  const add = (r: number, key: string) => {
    if (foldName(nameOfKey(key)).includes(q)) found.set(`${r}\0${key}`, { r, key });
  };
  for (const m of await candidates(repo, q, ranges)) add(m.r, m.key);
  for (const [r, range] of ranges.entries()) {
    const cfg = range.mount.storage_config_id;
    for await (const key of repo.longKeys(cfg, range.dir)) add(r, key);
    if (range.self && range.dir && (await repo.getEntries(cfg, [range.dir])).size) {
      add(r, range.dir);
    }
  }
  return [...found.values()].sort((a, b) =>
    a.r - b.r || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

/**
 * The postings of the query's rarest gram: up to six trigrams are read in lockstep and the
 * first list to end is the answer, so a query costs about six times its rarest gram. A
 * 2-character query reads the one range of grams that start with it.
 */
async function candidates(repo: SearchRepo, q: string, ranges: Range[]): Promise<Match[]> {
  const pair = [...q].length < 3;
  const all = pair ? [q] : gramsOf(q, 3);
  const grams = all.length <= RACED_GRAMS
    ? all
    : Array.from({ length: RACED_GRAMS }, (_, i) =>
      all[Math.round(i * (all.length - 1) / (RACED_GRAMS - 1))]);
  const lists = grams.map(() => [] as Match[]);
  const iterators = grams.map(async function* (gram) {
    for (const [r, { mount, dir }] of ranges.entries()) {
      const cfg = mount.storage_config_id;
      const keys = pair ? repo.pairKeys(cfg, gram, dir) : repo.gramKeys(cfg, gram, dir);
      for await (const key of keys) yield { r, key };
    }
  });
  try {
    while (true) {
      const ended = await Promise.all(iterators.map(async (it, i) => {
        for (let n = 0; n < RACE_STEP; n++) {
          const next = await it.next();
          if (next.done) return true;
          lists[i].push(next.value);
        }
        return false;
      }));
      const first = ended.indexOf(true);
      if (first >= 0) return lists[first];
    }
  } finally {
    await Promise.all(iterators.map((it) => it.return(undefined)));
  }
}

/** Result items of a page of matches, read from the index entries. */
export async function itemsOf(
  repo: SearchRepo,
  page: Match[],
  ranges: Range[],
): Promise<SearchItem[]> {
  const entries = new Map<string, SearchEntry>();
  const byConfig = Map.groupBy(page, (m) => ranges[m.r].mount.storage_config_id);
  for (const [cfg, ms] of byConfig) {
    const got = await repo.getEntries(cfg, [...new Set(ms.map((m) => m.key))]);
    for (const [key, e] of got) entries.set(`${cfg}\0${key}`, e);
  }
  const items: SearchItem[] = [];
  for (const m of page) {
    const mount = ranges[m.r].mount;
    const e = entries.get(`${mount.storage_config_id}\0${m.key}`);
    if (!e) continue; // removed since it matched
    const name = nameOfKey(m.key);
    items.push({
      name,
      path: `${mount.mount_path}/${m.key}`,
      type: e.type,
      size: e.size,
      modified: e.modified,
      mimetype: e.type === "file" ? contentTypeFor(name) : null,
      mount_id: mount.id,
    });
  }
  return items;
}
