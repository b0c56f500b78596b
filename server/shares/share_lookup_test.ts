/**
 * ShareLookup on a real KV file: a slug seen before costs one read, a hint gone stale (a slug
 * moved, a share deleted, as another instance would) costs one more read and never answers
 * wrong, and a kept view count is used only with the record version it was read with.
 */
import assert from "node:assert/strict";
import { tempKv } from "../../tests/helpers/kv.ts";
import { ShareLookup } from "./share_lookup.ts";
import { ShareViewCounts } from "./share_view_counts.ts";
import { StoredCounts } from "./stored_counts.ts";
import { ViewTally } from "./view_tally.ts";

type Rec = { id: string; slug: string; max_views: number; note: string };

const KEYS = {
  bySlug: (slug: string) => ["by_slug", slug],
  record: (id: string) => ["recs", id],
  counter: (id: string) => ["views", id],
};

/** Writes a record and its slug index together, as the repositories do. */
async function save(kv: Deno.Kv, rec: Rec, oldSlug?: string) {
  const op = kv.atomic().set(KEYS.record(rec.id), rec).set(KEYS.bySlug(rec.slug), rec.id);
  if (oldSlug && oldSlug !== rec.slug) op.delete(KEYS.bySlug(oldSlug));
  assert.ok((await op.commit()).ok);
}

/**
 * The lookup over real view counts (a tally that flushes only when asked), with the keys of
 * every read recorded in `reads` (by table). `view` counts one view here, pending in the tally.
 */
async function setUp(reuseMs = 60_000) {
  const t = await tempKv();
  const reads: string[][] = [];
  const kv = new Proxy(t.kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "get" || prop === "getMany") {
        return (keys: Deno.KvKey | Deno.KvKey[]) => {
          const list = (prop === "get" ? [keys] : keys) as Deno.KvKey[];
          reads.push(list.map((k) => String(k[0])));
          return value.call(target, keys);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const tally = new ViewTally(t.kv, 60_000);
  const views = new ShareViewCounts(t.kv, { label: "rec", ...KEYS }, tally, reuseMs);
  const lookup = new ShareLookup<Rec>(kv, KEYS, views);
  const find = async (slug: string) => {
    reads.length = 0;
    const found = await lookup.find(slug);
    return { found: found && { note: found.value.note, views: found.views }, reads: [...reads] };
  };
  const view = async (slug: string) => {
    const found = await lookup.find(slug);
    assert.ok(found);
    await views.tallied({ ...found, views: null });
  };
  return {
    t,
    kv: t.kv,
    counts: views.stored,
    find,
    view,
    flush: () => tally.flush(),
    [Symbol.asyncDispose]: async () => {
      await tally.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

Deno.test("a slug seen before is one read; its count is read again only after a write", async () => {
  await using s = await setUp();
  const { kv, find, view } = s;
  await save(kv, { id: "a", slug: "slug1", max_views: 0, note: "first" });
  await kv.set(KEYS.counter("a"), new Deno.KvU64(4n));

  assert.deepEqual(await find("slug1"), {
    found: { note: "first", views: 4 },
    reads: [["by_slug"], ["recs", "views"]],
  });
  // The hint leads to the record; the count read a moment ago is used again, with the views
  // counted here since.
  await view("slug1");
  await view("slug1");
  assert.deepEqual(await find("slug1"), {
    found: { note: "first", views: 6 },
    reads: [["recs"]],
  });
  // This instance writes its views: the kept count goes, and the counter holds them.
  await s.flush();
  assert.deepEqual(await find("slug1"), {
    found: { note: "first", views: 6 },
    reads: [["recs", "views"]],
  });
  // Another instance edits the record and resets the counter: the new version is read with it.
  await save(kv, { id: "a", slug: "slug1", max_views: 0, note: "edited" });
  await kv.set(KEYS.counter("a"), new Deno.KvU64(0n));
  assert.deepEqual(await find("slug1"), {
    found: { note: "edited", views: 0 },
    reads: [["recs"], ["recs", "views"]],
  });
  // Views counted here while it was unlimited do not count once it has a limit.
  await view("slug1");
  // A limit set elsewhere: a limited share always comes with its counter.
  await save(kv, { id: "a", slug: "slug1", max_views: 3, note: "limited" });
  assert.deepEqual(await find("slug1"), {
    found: { note: "limited", views: 0 },
    reads: [["recs"], ["recs", "views"]],
  });
  assert.deepEqual((await find("slug1")).reads, [["recs", "views"]]);
});

Deno.test("a stale hint costs one more read and never answers wrong", async () => {
  await using s = await setUp();
  const { kv, find } = s;
  await save(kv, { id: "a", slug: "slug1", max_views: 0, note: "a" });
  assert.equal((await find("slug1")).found?.note, "a");

  // The slug moves to another share (as on another instance): the hint's record no longer
  // holds it, so the index is read and the new share answers.
  await save(kv, { id: "a", slug: "slug2", max_views: 0, note: "a" }, "slug1");
  await save(kv, { id: "b", slug: "slug1", max_views: 0, note: "b" });
  assert.deepEqual(await find("slug1"), {
    found: { note: "b", views: 0 },
    reads: [["recs"], ["by_slug"], ["recs", "views"]],
  });
  // Deleted: nothing, after the index says so.
  await kv.atomic().delete(KEYS.record("b")).delete(KEYS.bySlug("slug1")).commit();
  assert.deepEqual(await find("slug1"), { found: null, reads: [["recs"], ["by_slug"]] });
  assert.deepEqual(await find("nothing"), { found: null, reads: [["by_slug"]] });
});

Deno.test("kept counts expire after their reuse time and go when cleared", async () => {
  await using s = await setUp(0);
  const { kv, counts, find } = s;
  await save(kv, { id: "a", slug: "slug1", max_views: 0, note: "a" });
  await find("slug1");
  // A reuse time of 0 keeps nothing: every view reads the counter.
  assert.deepEqual((await find("slug1")).reads, [["recs", "views"]]);

  const kept = new StoredCounts(60_000);
  kept.keep("a", "v1", 3);
  const reused = kept.reusable("a");
  assert.equal(reused?.versionstamp, "v1");
  assert.equal(reused?.stored, 3);
  kept.clear();
  assert.equal(kept.reusable("a"), undefined);
  assert.equal(counts.reusable("a"), undefined);
});
