import assert from "node:assert/strict";
import { join } from "node:path";
import { type CachedMount, DirectoryCache } from "./directory_cache.ts";
import { TtlCache } from "../services/caches.ts";
import { CacheEpochs } from "../kv/cache_epochs.ts";
import { LocalDriver } from "../storage/local.ts";
import type { ListResult } from "../storage/driver.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

const MOUNT: CachedMount = { id: "m1", storage_config_id: "cfg", cache_ttl: 60 };

/** A directory cache over a real KV (epochs) and a local driver in the KV's temp dir. */
function setup(kv: Deno.Kv, dir: string) {
  const ttl = new TtlCache<unknown>("directory", { ttlMs: 60_000, maxItems: 100, scope: "user" });
  const cache = new DirectoryCache(ttl, new CacheEpochs(kv));
  const driver = new LocalDriver({
    root: join(dir, "store"),
    signingSecret: "secret",
    configId: "cfg",
    urlPrefix: "/api/storage/local",
    fsync: false,
  });
  let loads = 0;
  /** Lists `prefix` through the cache, counting the listings of the store. */
  const list = (prefix: string, mount = MOUNT, refresh = false): Promise<ListResult> =>
    cache.page(mount, prefix, { refresh }, () => {
      loads++;
      return driver.list(prefix, { delimiter: "/" });
    });
  return { cache, driver, list, loads: () => loads };
}

const names = (page: ListResult) => [...page.prefixes, ...page.items.map((i) => i.key)];

Deno.test("directory cache: a page is listed once while nothing writes; TTL 0 never caches", async () => {
  await using t = await tempKv();
  const s = setup(t.kv, t.dir);
  await s.driver.put("a/x.txt", "x");
  assert.deepEqual(names(await s.list("a/")), ["a/x.txt"]);
  await s.list("a/");
  assert.equal(s.loads(), 1);
  await s.list("a/", { ...MOUNT, id: "m2", cache_ttl: 0 });
  await s.list("a/", { ...MOUNT, id: "m2", cache_ttl: 0 });
  assert.equal(s.loads(), 3);
  await s.list("a/", MOUNT, true);
  assert.equal(s.loads(), 4, "refresh skips the cache");
});

Deno.test("directory cache: a write through the watched driver drops folders above and below", async () => {
  await using t = await tempKv();
  const s = setup(t.kv, t.dir);
  const watched = s.cache.watch(s.driver, "cfg");
  await s.driver.put("a/b/c.txt", "c");
  await s.driver.put("z/z.txt", "z");
  for (const p of ["", "a/", "a/b/", "z/"]) await s.list(p);
  assert.equal(s.loads(), 4);
  await watched.put("a/new.txt", "n");
  for (const p of ["", "a/", "a/b/", "z/"]) await s.list(p);
  // The write moved the config's epoch, which every instance's pages of it follow: all four
  // are listed again (drop below tests which pages go by key alone).
  assert.ok(names(await s.list("a/")).includes("a/new.txt"));
  assert.equal(s.loads(), 8);
});

Deno.test("directory cache: another instance's write is seen through the shared epoch", async () => {
  await using t = await tempKv();
  const here = setup(t.kv, t.dir);
  const there = setup(t.kv, t.dir);
  await here.driver.put("f/one.txt", "1");
  assert.deepEqual(names(await here.list("f/")), ["f/one.txt"]);
  await there.cache.watch(there.driver, "cfg").put("f/two.txt", "2");
  assert.deepEqual(names(await here.list("f/")), ["f/one.txt", "f/two.txt"]);
  // A write that leaves the epoch to its caller only drops the writer's own pages.
  await here.list("f/");
  const loads = here.loads();
  await there.cache.watch(there.driver, "cfg", "caller").delete("f/one.txt");
  await here.list("f/");
  assert.equal(here.loads(), loads, "still the cached page until the caller moves the epoch");
  await there.cache.invalidate("cfg", "f/one.txt");
  assert.deepEqual(names(await here.list("f/")), ["f/two.txt"]);
});

Deno.test("directory cache: drop takes only the affected folders of one config", async () => {
  await using t = await tempKv();
  const s = setup(t.kv, t.dir);
  const other = { ...MOUNT, storage_config_id: "cfg2" };
  for (const p of ["", "a/", "a/b/", "ab/"]) await s.list(p);
  await s.list("a/", other);
  assert.equal(s.loads(), 5);
  s.cache.drop("cfg", "a/b");
  for (const p of ["", "a/", "a/b/", "ab/"]) await s.list(p);
  await s.list("a/", other);
  // "", a/ (above) and a/b/ (the folder itself, and below it) go; ab/ and the other config stay.
  assert.equal(s.loads(), 8);
});

Deno.test("directory cache: a failed write still drops; a failed epoch move is logged", async () => {
  await using t = await tempKv();
  const s = setup(t.kv, t.dir);
  await s.list("");
  await assert.rejects(s.cache.watch(s.driver, "cfg").delete("../escape"));
  await s.list("");
  assert.equal(s.loads(), 2);
  const logged: string[] = [];
  t.kv.close();
  const closed = new DirectoryCache(
    new TtlCache<unknown>("d", { ttlMs: 1, maxItems: 1, scope: "user" }),
    new CacheEpochs(t.kv),
    (m) => logged.push(m),
  );
  await closed.invalidate("cfg", "a");
  assert.match(logged[0], /Cached listings of storage cfg may stay stale elsewhere/);
});

Deno.test("directory cache: a write drops exactly the pages above and below its key, through a full cache", async () => {
  await using t = await tempKv();
  // Fewer items than pages: the oldest are evicted while filling, and must leave the index.
  const ttl = new TtlCache<unknown>("directory", { ttlMs: 60_000, maxItems: 100, scope: "user" });
  const cache = new DirectoryCache(ttl, new CacheEpochs(t.kv));
  const empty = (): Promise<ListResult> =>
    Promise.resolve({ items: [], prefixes: [], cursor: null });
  const prefixes = ["", "a/", "a/b/", "a/b/c/", "a/bc/", "ab/", "x/", "x/y/"];
  const fill = async () => {
    for (const cfg of ["c1", "c2"]) {
      for (const prefix of prefixes) {
        for (const id of ["m1", "m2"]) {
          for (const cursor of ["", "k"]) {
            for (const limit of [50, 200]) {
              const mount = { id, storage_config_id: cfg, cache_ttl: 60 };
              await cache.page(mount, prefix, { cursor, limit }, empty);
            }
          }
        }
      }
    }
  };
  const cached = () => {
    const keys: string[] = [];
    ttl.deleteWhere((k) => (keys.push(k), false));
    return keys;
  };
  for (const key of ["a/b/c/f.txt", "a/b", "a/bc", "ab/x.txt", "x", "x/y/z/deep.txt", "new.txt"]) {
    await fill();
    const before = cached();
    assert.equal(before.length, 100);
    assert.equal(cache.indexedPages, 100);
    // The rule, read off each key: a page of config c1 goes when its folder is above the write
    // (the root included) or below it.
    const kept = before.filter((k) => {
      const [cfg, prefix] = k.split("\0");
      return cfg !== "c1" || !(key.startsWith(prefix) || prefix.startsWith(`${key}/`));
    });
    cache.drop("c1", key);
    assert.deepEqual(cached(), kept, key);
    assert.equal(cache.indexedPages, kept.length);
  }
});
