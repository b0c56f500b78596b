import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { ANONYMOUS, type Auth } from "../services/auth.ts";
import { sweepOnce } from "../jobs/sweeper.ts";
import { AppError } from "../errors.ts";
import { CHUNK_BYTES } from "./paste_repo.ts";
import { INLINE_BYTES } from "./paste_content.ts";

async function withApp(fn: (t: TestApp, admin: Auth) => Promise<void>) {
  await using t = await createTestApp();
  await fn(t, await t.services.auth.authenticate(await t.adminAuth(), "127.0.0.1"));
}

const base = { remark: null, password: null, expires_at: null, max_views: 0 };

async function countKeys(t: TestApp, prefix: string[]): Promise<number> {
  let n = 0;
  for await (const _ of t.kv.list({ prefix })) n++;
  return n;
}

async function rejects(p: Promise<unknown>, code: string, status: number) {
  await assert.rejects(p, (err) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.status, status);
    return true;
  });
}

Deno.test("deleteExpired removes expired records, indexes, counters and chunks only", async () => {
  await withApp(async (t, admin) => {
    const { pastes } = t.services;
    const hour = new Date(Date.now() + 3600_000).toISOString();
    const day = new Date(Date.now() + 86_400_000).toISOString();
    const big = "x".repeat(CHUNK_BYTES * 2 + 5);
    const soon = await pastes.create(admin, { ...base, content: big, expires_at: hour });
    const later = await pastes.create(admin, { ...base, content: "later", expires_at: day });
    const never = await pastes.create(admin, { ...base, content: "never" });
    // Small content lives in its record: only the big paste has chunks.
    assert.equal(await countKeys(t, ["paste_chunks"]), 3);
    // A counter exists once a view was written.
    assert.equal(await countKeys(t, ["paste_views"]), 0);
    // Visitors' views (the owner's are not counted).
    for (const p of [soon, later, never]) await pastes.open(p.slug, ANONYMOUS);
    await t.services.viewTally.flush();
    assert.equal(await countKeys(t, ["paste_views"]), 3);
    assert.equal(await countKeys(t, ["pastes_by_expiry"]), 2);

    assert.equal(await pastes.deleteExpired(Date.now()), 0);
    assert.equal(await pastes.deleteExpired(Date.parse(hour)), 1, "expiry at now counts");
    await rejects(pastes.open(soon.slug, admin), "paste_expired", 410);
    assert.equal((await pastes.open(later.slug, admin)).content, "later");
    assert.equal(await countKeys(t, ["paste_chunks"]), 0);
    assert.equal(await countKeys(t, ["pastes_by_expiry"]), 1);
    assert.equal(await countKeys(t, ["paste_views"]), 2);
    assert.equal(await countKeys(t, ["pastes_by_slug"]), 2);

    // Moving the expiry moves its index entry: the old time no longer deletes it.
    const moved = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await pastes.update(admin, later.id, { expires_at: moved });
    assert.equal(await pastes.deleteExpired(Date.parse(day) + 1), 0);
    assert.equal(await pastes.deleteExpired(Date.parse(moved)), 1);
    assert.equal((await pastes.open(never.slug, admin)).content, "never");
    assert.equal(await countKeys(t, ["pastes_by_expiry"]), 0);
    assert.equal(await countKeys(t, ["paste_views"]), 1);
  });
});

Deno.test("the sweeper deletes a paste once its expiry passes", async () => {
  await withApp(async (t, admin) => {
    const expires = new Date(Date.now() + 1000).toISOString();
    const p = await t.services.pastes.create(admin, {
      ...base,
      content: "brief",
      expires_at: expires,
    });
    assert.equal(await sweepOnce(t.services, "test-owner"), 0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await rejects(t.services.pastes.open(p.slug, admin), "paste_expired", 410);
    assert.equal(await sweepOnce(t.services, "test-owner"), 1);
    // Its tombstone keeps answering "expired" rather than "not found".
    await rejects(t.services.pastes.open(p.slug, admin), "paste_expired", 410);
    assert.equal(await countKeys(t, ["paste_chunks"]), 0);
  });
});

Deno.test("concurrent opens of a 3-view paste deliver exactly 3 times", async () => {
  await withApp(async (t, admin) => {
    const p = await t.services.pastes.create(admin, { ...base, content: "three", max_views: 3 });
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, () => t.services.pastes.open(p.slug, ANONYMOUS)),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    assert.equal(ok.length, 3);
    for (const r of results) {
      if (r.status === "rejected") assert.equal((r.reason as AppError).code, "paste_expired");
    }
    const peek = await t.services.pastes.peek(p.slug);
    assert.equal(peek.state, "expired");
  });
});

Deno.test("opens racing with content edits always see one whole version", async () => {
  await withApp(async (t, admin) => {
    const v1 = "A".repeat(CHUNK_BYTES * 3);
    const v2 = "B".repeat(CHUNK_BYTES * 4 + 17);
    const p = await t.services.pastes.create(admin, { ...base, content: v1 });
    const reads = Array.from({ length: 40 }, () => t.services.pastes.open(p.slug, admin));
    const edit = t.services.pastes.update(admin, p.id, { content: v2 });
    const [edited, ...views] = await Promise.all([edit, ...reads]);
    assert.equal(edited.content, v2);
    for (const v of views) assert.ok(v.content === v1 || v.content === v2);
    assert.equal((await t.services.pastes.get(admin, p.id)).content, v2);
    assert.equal(await countKeys(t, ["paste_chunks"]), 5);
  });
});

Deno.test("a failed edit keeps the old content and deletes the new chunks", async () => {
  await withApp(async (t, admin) => {
    const { pastes } = t.services;
    await pastes.create(admin, { ...base, content: "other", slug: "other" });
    const keep = "keep me ".repeat(INLINE_BYTES); // one chunk
    const p = await pastes.create(admin, { ...base, content: keep, slug: "mine" });
    await rejects(
      pastes.update(admin, p.id, { content: "y".repeat(CHUNK_BYTES * 2), slug: "other" }),
      "slug_taken",
      409,
    );
    assert.equal((await pastes.open("mine", admin)).content, keep);
    assert.equal(await countKeys(t, ["paste_chunks"]), 1);
  });
});

Deno.test("editing max views resets the counter; other edits keep it", async () => {
  await withApp(async (t, admin) => {
    const { pastes } = t.services;
    const p = await pastes.create(admin, { ...base, content: "v", max_views: 2 });
    await pastes.open(p.slug, ANONYMOUS);
    await pastes.open(p.slug, ANONYMOUS);
    await rejects(pastes.open(p.slug, ANONYMOUS), "paste_expired", 410);
    assert.equal((await pastes.update(admin, p.id, { remark: "x" })).views, 2);
    await rejects(pastes.open(p.slug, ANONYMOUS), "paste_expired", 410);
    assert.equal((await pastes.update(admin, p.id, { max_views: 2 })).views, 0);
    assert.equal((await pastes.open(p.slug, ANONYMOUS)).views, 1);
  });
});

Deno.test("peek never counts and hides locked content", async () => {
  await withApp(async (t, admin) => {
    const { pastes } = t.services;
    const locked = await pastes.create(admin, { ...base, content: "s", password: "pw" });
    const limited = await pastes.create(admin, { ...base, content: "l", max_views: 1 });
    const open = await pastes.create(admin, { ...base, content: "o" });
    for (let i = 0; i < 3; i++) {
      const a = await pastes.peek(locked.slug);
      assert.ok(a.state === "locked" && a.requires === "password" && a.view.content === null);
      const b = await pastes.peek(limited.slug);
      assert.ok(b.state === "locked" && b.requires === "view" && b.view.views === 0);
      const c = await pastes.peek(open.slug);
      assert.ok(c.state === "open" && c.view.content === "o" && c.view.views === 0);
    }
    assert.equal((await pastes.peek("missing")).state, "missing");
  });
});

Deno.test("a one-chunk paste is one commit; larger content is written before the record", async () => {
  await withApp(async (t, admin) => {
    const kv = t.kv;
    const stamps = async (id: string) => {
      const rec = (await kv.get<{ content_id: string }>(["pastes", id])).value!;
      const chunk = await kv.get(["paste_chunks", rec.content_id, 0]);
      return { rec: (await kv.get(["pastes", id])).versionstamp, chunk: chunk.versionstamp };
    };
    const small = await t.services.pastes.create(admin, {
      ...base,
      content: "x".repeat(CHUNK_BYTES),
    });
    const s = await stamps(small.id);
    assert.ok(s.chunk, "the chunk exists");
    assert.equal(s.chunk, s.rec, "record and chunk share one commit");
    assert.equal(
      (await t.services.pastes.open(small.slug, admin)).content,
      "x".repeat(CHUNK_BYTES),
    );

    const big = await t.services.pastes.create(admin, {
      ...base,
      content: "y".repeat(CHUNK_BYTES + 1),
    });
    const b = await stamps(big.id);
    assert.ok(b.chunk && b.chunk < b.rec!, "chunks are committed before the record");
    assert.equal(
      (await t.services.pastes.open(big.slug, admin)).content,
      "y".repeat(CHUNK_BYTES + 1),
    );

    const empty = await t.services.pastes.create(admin, { ...base, content: "" });
    assert.equal((await t.services.pastes.open(empty.slug, admin)).content, "");

    // A taken slug commits nothing: no chunk of the failed create is left behind.
    const chunksBefore = await countKeys(t, ["paste_chunks"]);
    await rejects(
      t.services.pastes.create(admin, { ...base, content: "again", slug: small.slug }),
      "slug_taken",
      409,
    );
    assert.equal(await countKeys(t, ["paste_chunks"]), chunksBefore);
  });
});
