import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";
import {
  CacheRegistry,
  type CacheStats,
  KeyGroups,
  s3UrlTtlMs,
  TtlCache,
} from "../services/caches.ts";

async function cacheStats(t: TestApp): Promise<Map<string, CacheStats>> {
  const res = await t.request("/api/admin/cache/stats", { auth: await t.adminAuth() });
  assert.equal(res.status, 200);
  const list: CacheStats[] = (await res.json()).data.caches;
  return new Map(list.map((c) => [c.name, c]));
}

Deno.test("TtlCache: hits, misses, expiry, size limit and clearing", () => {
  const c = new TtlCache<number>("t", { ttlMs: 1000, maxItems: 2, scope: "user" });
  assert.equal(c.get("a", 0), undefined);
  c.set("a", 1, undefined, 0);
  c.set("b", 2, 500, 0);
  assert.equal(c.get("a", 100), 1);
  assert.equal(c.get("b", 600), undefined, "b expired after its own ttl");
  c.set("c", 3, undefined, 600);
  c.set("d", 4, undefined, 600);
  assert.equal(c.get("a", 700), undefined, "the least recently used entry went first");
  assert.deepEqual(c.stats(700), { name: "t", hits: 1, misses: 3, hit_rate: 0.25, items: 2 });
  c.set("zero", 9, 0, 700);
  assert.equal(c.size(700), 2, "a ttl of 0 stores nothing");
  assert.equal(c.deleteWhere((k) => k === "c"), 1);
  assert.equal(c.clear(700), 1);
  assert.equal(c.stats(700).items, 0);
  assert.equal(c.stats(700).hits, 1, "clearing keeps the counts");
});

Deno.test("TtlCache: onDrop hears every key that leaves, however it leaves", () => {
  const c = new TtlCache<number>("t", { ttlMs: 1000, maxItems: 2, scope: "user" });
  const dropped: string[] = [];
  c.onDrop((key) => dropped.push(key));
  c.set("a", 1, 500, 0);
  c.set("a", 2, undefined, 0); // a new value for a key it holds: nothing leaves
  c.set("b", 1, 500, 0);
  c.set("c", 1, undefined, 0); // over maxItems: the least recently used goes
  assert.deepEqual(dropped, ["a"]);
  assert.equal(c.get("b", 600), undefined); // expired
  c.set("d", 1, undefined, 600);
  assert.equal(c.getIf("d", () => false, 600), undefined); // refused
  c.set("e", 1, undefined, 600);
  c.delete("e");
  c.delete("e"); // gone already: heard once
  c.set("f", 1, undefined, 600);
  c.deleteWhere((k) => k === "f");
  c.set("g", 1, undefined, 600);
  c.clear(600);
  assert.deepEqual(dropped, ["a", "b", "d", "e", "f", "c", "g"]);
});

Deno.test("KeyGroups: a key is found under each of its names until it leaves the cache", () => {
  const c = new TtlCache<number>("t", { ttlMs: 1000, maxItems: 2, scope: "user" });
  const groups = new KeyGroups(c);
  const put = (key: string, names: string[]) => {
    groups.add(key, names);
    c.set(key, 1, undefined, 0);
  };
  put("s1", ["cfgA", "cfgB"]);
  put("s2", ["cfgB"]);
  assert.deepEqual(groups.keysOf("cfgA"), ["s1"]);
  assert.deepEqual(groups.keysOf("cfgB"), ["s1", "s2"]);
  put("s3", ["cfgA"]); // over maxItems: s1 leaves the cache, and every name it was under
  assert.deepEqual(groups.keysOf("cfgA"), ["s3"]);
  assert.deepEqual(groups.keysOf("cfgB"), ["s2"]);
  c.delete("s2");
  assert.deepEqual(groups.keysOf("cfgB"), []);
  assert.equal(groups.size, 1);
});

Deno.test("CacheRegistry: names are unique; users clear only user-scoped caches", () => {
  const r = new CacheRegistry();
  const admin = r.register<number>("admin_only", { ttlMs: 1000, maxItems: 10, scope: "admin" });
  const user = r.register<number>("shared", { ttlMs: 1000, maxItems: 10, scope: "user" });
  assert.throws(() => r.register("shared", { ttlMs: 1, maxItems: 1, scope: "user" }));
  admin.set("x", 1);
  user.set("y", 2);
  assert.deepEqual(r.clearForUser(), { cleared: [{ name: "shared", items: 1 }], total: 1 });
  assert.equal(admin.size(), 1);
  assert.deepEqual(r.clearAll(), {
    cleared: [{ name: "admin_only", items: 1 }, { name: "shared", items: 0 }],
    total: 1,
  });
  assert.equal(s3UrlTtlMs(60), 30_000);
  assert.equal(s3UrlTtlMs(3600), 600_000);
});

Deno.test("the three caches are reported; a fresh app has no items", async () => {
  await using t = await createTestApp();
  const stats = await cacheStats(t);
  assert.deepEqual([...stats.keys()], ["directory", "s3_url", "search"]);
  for (const c of stats.values()) {
    assert.deepEqual({ ...c, name: "" }, { name: "", hits: 0, misses: 0, hit_rate: 0, items: 0 });
  }
  const dash = await t.request("/api/admin/dashboard/stats", { auth: await t.adminAuth() });
  const names = (await dash.json()).data.caches.map((c: CacheStats) => c.name);
  assert.deepEqual(names, ["directory", "s3_url", "search"]);
});

Deno.test("S3 file redirects reuse a cached presigned URL until the cache is cleared", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const admin = await t.adminAuth();
  const cfg = await t.createS3rverConfig(s3, { signature_expires_in: 600 });
  const fd = new FormData();
  fd.set("s3_config_id", cfg.id);
  fd.set("use_proxy", "false");
  fd.set("file", new Blob([new TextEncoder().encode("cached bytes")]), "c.txt");
  const up = await t.request("/api/upload", { method: "POST", auth: admin, body: fd });
  const file = (await up.json()).data;
  assert.equal(up.status, 201, JSON.stringify(file));

  const redirect = async (path: string) => {
    const res = await t.request(`/api/${path}/${file.slug}`, { redirect: "manual" });
    await res.body?.cancel();
    assert.equal(res.status, 302);
    return res.headers.get("location")!;
  };
  const first = await redirect("file-download");
  assert.ok(first.startsWith(s3.endpoint), first);
  assert.equal(await redirect("file-download"), first, "the second redirect is cached");
  const view = await redirect("file-view");
  assert.notEqual(view, first, "inline and download URLs are cached apart");
  assert.equal(await (await fetch(first)).text(), "cached bytes", "the cached URL works");

  let s = (await cacheStats(t)).get("s3_url")!;
  assert.deepEqual({ hits: s.hits, misses: s.misses, items: s.items }, {
    hits: 1,
    misses: 2,
    items: 2,
  });
  assert.equal(s.hit_rate, 0.3333);

  // A key user clears the user caches; the admin clears all of them.
  const key = await t.createKey({ file: true });
  const userClear = await t.request("/api/user/cache/clear", { method: "POST", auth: key.auth });
  assert.equal((await userClear.json()).data.total, 2);
  assert.equal((await cacheStats(t)).get("s3_url")!.items, 0);
  await redirect("file-download");
  const clear = await t.request("/api/admin/cache/clear", { method: "POST", auth: admin });
  const cleared = (await clear.json()).data;
  assert.deepEqual(cleared.cleared.map((c: { name: string }) => c.name), [
    "directory",
    "s3_url",
    "search",
  ]);
  assert.equal(cleared.total, 1);
  s = (await cacheStats(t)).get("s3_url")!;
  assert.equal(s.items, 0);
  assert.equal(s.misses, 3);

  // Editing the file changes the cache key, so no stale Content-Disposition is served.
  await redirect("file-download");
  const edit = await t.request(`/api/files/${file.id}`, {
    method: "PUT",
    auth: admin,
    json: { remark: "changed" },
  });
  assert.equal(edit.status, 200);
  await redirect("file-download");
  assert.equal((await cacheStats(t)).get("s3_url")!.misses, 5);
});

Deno.test("a clear counts the items it dropped, also when this instance follows clears", async () => {
  const seen: number[] = [];
  for (let i = 0; i < 10; i++) {
    await using t = await createTestApp();
    // As main.ts does: this instance also hears its own clears through a KV watch, which may
    // call back before the commit's reply; the count must still be of what this clear dropped.
    t.services.followOtherInstances();
    const auth = await t.adminAuth();
    t.services.caches.s3Url.set("url", "https://example.com/signed");
    t.services.caches.directory.set("dir", []);
    const res = await t.request("/api/admin/cache/clear", { method: "POST", auth });
    assert.equal(res.status, 200);
    seen.push((await res.json()).data.total);
  }
  assert.deepEqual(seen, Array(10).fill(2));
});
