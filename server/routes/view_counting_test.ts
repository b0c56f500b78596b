/**
 * How views are counted, and what a view and a create cost in KV calls. The services run on a real KV
 * file wrapped in a counting proxy: every call still goes to the real store, the proxy only
 * tallies them (one `list` counts once, though it may fetch several batches).
 */
import assert from "node:assert/strict";
import { createPeerApp, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { type Calls, callsDuring, countingKv } from "../../tests/helpers/counting_kv.ts";
import { shareFile, sharePaste } from "../../tests/helpers/shares.ts";

const total = (c: Calls) => Object.values(c).reduce((a, b) => a + b, 0);

async function createPaste(t: TestApp, extra: Record<string, unknown> = {}) {
  const { id, slug } = await sharePaste(t, { content: "statistics only", ...extra });
  return { id, slug };
}

const storedViews = async (t: TestApp, key: Deno.KvKey) =>
  Number((await t.kv.get<Deno.KvU64>(key)).value?.value ?? 0n);

Deno.test("an unlimited paste's view costs one KV read and no commit", async () => {
  const calls: Calls = {};
  await using t = await createTestApp({ VIEW_FLUSH_MS: "60000" }, {
    wrapKv: (kv) => countingKv(kv, calls),
  });
  const { slug } = await createPaste(t);
  await t.request(`/api/raw/${slug}`).then((r) => r.text()); // warms the settings caches
  for (const path of [`/api/raw/${slug}`, `/api/paste/${slug}`]) {
    const used = await callsDuring(calls, async () => {
      const res = await t.request(path);
      assert.equal(res.status, 200);
      assert.ok((await res.text()).includes("statistics only"));
    });
    // Before: slug index, record, counter read, checked commit, chunk list (5, one durable).
    // Now the slug's hint (left by the create) leads to the record, which holds the content:
    // record and counter in one getMany.
    assert.deepEqual(used, { getMany: 1 }, path);
    assert.equal(total(used), 1);
  }
  // A limited paste still commits each view, exactly.
  const limited = await createPaste(t, { max_views: 3 });
  const used = await callsDuring(calls, async () => {
    assert.equal((await t.request(`/api/raw/${limited.slug}`)).status, 200);
  });
  assert.equal(used.commit, 1, JSON.stringify(used));
});

/** Wraps a KV handle so that the keys of every `getMany` are recorded in `reads`, by table. */
function recordingReads(kv: Deno.Kv, reads: string[][]): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop !== "getMany") return typeof value === "function" ? value.bind(target) : value;
      return (keys: Deno.KvKey[], ...rest: unknown[]) => {
        reads.push(keys.map((k) => String(k[0])));
        return value.apply(target, [keys, ...rest]);
      };
    },
  });
}

Deno.test("a raw view of an open paste reads its record alone; a limit set elsewhere is still exact", async () => {
  const reads: string[][] = [];
  await using t = await createTestApp({ VIEW_FLUSH_MS: "60000" }, {
    wrapKv: (kv) => recordingReads(kv, reads),
  });
  const { id, slug } = await createPaste(t);
  const readsOf = async (path: string) => {
    reads.length = 0;
    const res = await t.request(path);
    return { status: res.status, text: await res.text(), reads: [...reads] };
  };
  // The raw text needs no view count: the record (which holds the content) is the one key read.
  const raw = await readsOf(`/api/raw/${slug}`);
  assert.equal(raw.text, "statistics only");
  assert.deepEqual(raw.reads, [["pastes"]]);
  // The JSON view answers with the views, so it reads the counter with the record.
  assert.deepEqual((await readsOf(`/api/paste/${slug}`)).reads, [["pastes", "paste_views"]]);

  // Another instance sets a limit: this one's hint still says "no limit", so it reads the record
  // alone, finds the limit, and reads the record again with its counter before counting.
  await using peer = await createPeerApp(t);
  const edit = await peer.request(`/api/pastes/${id}`, {
    method: "PUT",
    auth: await peer.adminAuth(),
    json: { max_views: 2 },
  });
  assert.equal(edit.status, 200, await edit.clone().text());
  const first = await readsOf(`/api/raw/${slug}`);
  assert.equal(first.status, 200);
  assert.deepEqual(first.reads, [["pastes"], ["pastes", "paste_views"]]);
  const statuses = [];
  for (let i = 0; i < 2; i++) statuses.push((await readsOf(`/api/raw/${slug}`)).status);
  assert.deepEqual(statuses, [200, 410], "two views in all, then used up");
  assert.deepEqual((await readsOf(`/api/raw/${slug}`)).reads.at(-1), ["pastes", "paste_views"]);
});

Deno.test("an unlimited paste's stored count is read again a few times a second, and a peer's views and edits show", async () => {
  const reads: string[][] = [];
  await using t = await createTestApp({ VIEW_FLUSH_MS: "60000" }, {
    wrapKv: (kv) => recordingReads(kv, reads),
  });
  const { id, slug } = await createPaste(t);
  const view = async () => {
    reads.length = 0;
    const res = await t.request(`/api/paste/${slug}`);
    assert.equal(res.status, 200);
    const { data } = await res.json();
    return { views: data.views as number, remark: data.remark as string | null, reads: [...reads] };
  };
  // The first view reads the counter; the next one, right after, uses what it read and adds
  // the view pending here, so the count stays exact for this instance's own views.
  assert.deepEqual(await view(), { views: 1, remark: null, reads: [["pastes", "paste_views"]] });
  assert.deepEqual(await view(), { views: 2, remark: null, reads: [["pastes"]] });
  // Its own flush moves the pending views into KV: the counter is read again, no view is lost.
  await t.services.viewTally.flush();
  assert.deepEqual(await view(), { views: 3, remark: null, reads: [["pastes", "paste_views"]] });

  // Views on another instance reach this one within the reuse time after their flush.
  await using peer = await createPeerApp(t);
  for (let i = 0; i < 3; i++) assert.equal((await peer.request(`/api/paste/${slug}`)).status, 200);
  await peer.services.viewTally.flush();
  const deadline = Date.now() + 5_000;
  for (let own = 4;; own++) {
    const seen = await view();
    if (seen.views === own + 3) break; // 3 of the peer's, `own` of this instance's
    assert.ok(Date.now() < deadline, `the peer's views did not show: ${JSON.stringify(seen)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  // An edit on the peer shows at once: the record's new version is read with its counter.
  await t.services.viewTally.flush();
  const stored = await storedViews(t, ["paste_views", id]);
  assert.equal((await view()).views, stored + 1); // the count is kept again
  const edit = await peer.request(`/api/pastes/${id}`, {
    method: "PUT",
    auth: await peer.adminAuth(),
    json: { remark: "edited elsewhere" },
  });
  assert.equal(edit.status, 200, await edit.clone().text());
  assert.deepEqual(await view(), {
    views: stored + 2,
    remark: "edited elsewhere",
    reads: [["pastes"], ["pastes", "paste_views"]],
  });
});

Deno.test("unlimited views show at once and reach the store after the flush interval", async () => {
  await using t = await createTestApp({ VIEW_FLUSH_MS: "100" });
  const { id, slug } = await createPaste(t);
  const seen: number[] = [];
  for (let i = 0; i < 3; i++) {
    seen.push((await (await t.request(`/api/paste/${slug}`)).json()).data.views);
  }
  await t.request(`/api/raw/${slug}`).then((r) => r.text());
  assert.deepEqual(seen, [1, 2, 3], "each reply includes the views pending in memory");
  const list = await (await t.request("/api/pastes", { auth: await t.adminAuth() })).json();
  assert.equal(list.data.items[0].views, 4, "owners see pending views too");
  const deadline = Date.now() + 5_000;
  while (await storedViews(t, ["paste_views", id]) !== 4) {
    assert.ok(Date.now() < deadline, "written within 5 s of a 100 ms interval");
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(t.services.viewTally.pendingOf(["paste_views", id]), 0);
});

Deno.test("an unlimited file share counts in memory; setting a limit drops pending views", async () => {
  await using t = await createTestApp({ VIEW_FLUSH_MS: "60000" });
  const { id, slug } = await shareFile(t, "file bytes", "a.txt");
  for (let i = 0; i < 3; i++) {
    const res = await t.request(`/api/file-download/${slug}`);
    assert.equal(await res.text(), "file bytes");
  }
  const info = await (await t.request(`/api/public/files/${slug}`)).json();
  assert.equal(info.data.views, 4);
  assert.equal(await storedViews(t, ["file_views", id]), 0, "nothing committed yet");
  await t.services.viewTally.flush();
  assert.equal(await storedViews(t, ["file_views", id]), 4);

  // Views pending when the owner sets a limit are not charged against it.
  await t.request(`/api/file-download/${slug}`).then((r) => r.text());
  const edit = await t.request(`/api/files/${id}`, {
    method: "PUT",
    auth: await t.adminAuth(),
    json: { max_views: 2 },
  });
  assert.equal(edit.status, 200, await edit.clone().text());
  await t.services.viewTally.flush();
  assert.equal(await storedViews(t, ["file_views", id]), 0);
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const res = await t.request(`/api/file-download/${slug}`);
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [200, 200, 410]);
});

Deno.test("a paste created with an API key costs one KV read and one commit", async () => {
  const calls: Calls = {};
  await using t = await createTestApp({}, { wrapKv: (kv) => countingKv(kv, calls) });
  const key = await t.createKey({ text: true });
  const create = (content: string) =>
    t.request("/api/paste", { method: "POST", auth: key.auth, json: { content } });
  assert.equal((await create("first")).status, 201); // writes the key's last-used time
  for (let i = 0; i < 3; i++) {
    const used = await callsDuring(calls, async () => {
      const res = await create(`paste ${i}`);
      assert.equal(res.status, 201, await res.clone().text());
    });
    // Before: the rate-limit counters, the key's hash index, the key, then the commit.
    assert.deepEqual(used, { getMany: 1, commit: 1 });
  }
  // A wrong key is refused, and a deleted key stops working at once: the id remembered for
  // its hash is only a guess, checked against the index read in the same snapshot.
  const wrong = await t.request("/api/paste", {
    method: "POST",
    auth: `${key.auth}x`,
    json: { content: "x" },
  });
  assert.equal(wrong.status, 401);
  const del = await t.request(`/api/admin/api-keys/${key.id}`, {
    method: "DELETE",
    auth: await t.adminAuth(),
  });
  assert.equal(del.status, 200, await del.clone().text());
  assert.equal((await create("after delete")).status, 401);
});

Deno.test("setting a view limit while views are still pending in memory grants every new view", async () => {
  await using t = await createTestApp({ VIEW_FLUSH_MS: "60000" });
  const admin = await t.adminAuth();
  const paste = await createPaste(t);
  const file = await shareFile(t, "file bytes", "b.txt");
  const shares = [
    { view: `/api/raw/${paste.slug}`, edit: `/api/pastes/${paste.id}` },
    { view: `/api/file-download/${file.slug}`, edit: `/api/files/${file.id}` },
  ];
  for (const { view, edit } of shares) {
    for (let i = 0; i < 5; i++) await t.request(view).then((r) => r.text());
    // No flush: the five views are still pending in this instance's memory.
    const res = await t.request(edit, { method: "PUT", auth: admin, json: { max_views: 3 } });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal((await res.json()).data.views, 0, `${edit}: the limit starts from zero`);
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const r = await t.request(view);
      statuses.push(r.status);
      await r.body?.cancel();
    }
    assert.deepEqual(statuses, [200, 200, 200, 410], view);
  }
});
