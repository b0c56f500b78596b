import assert from "node:assert/strict";
import { createPeerApp, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { keys } from "../kv/keys.ts";
import {
  LIST_INDEX_MIGRATION,
  migrateListIndexes,
  recountCreatorTotals,
} from "./list_index_migration.ts";
import { readCreatorTotal } from "./share_index.ts";

async function list(t: TestApp, auth: string, path: string) {
  const res = await t.request(path, { auth });
  assert.equal(res.status, 200);
  const data = (await res.json()).data;
  return { slugs: data.items.map((i: { slug: string }) => i.slug), total: data.total as number };
}

/** Deletes every key under the given top-level prefixes. */
async function wipe(kv: Deno.Kv, names: string[]): Promise<void> {
  for (const name of names) {
    for await (const e of kv.list({ prefix: [name] })) await kv.delete(e.key);
  }
}

/** The lists as the indexes answer them, for a key user and the admin. */
async function lists(t: TestApp, admin: string, key: string) {
  return {
    keyPastes: await list(t, key, "/api/pastes"),
    keySearch: await list(t, key, "/api/pastes?search=Own"),
    adminSearch: await list(t, admin, "/api/pastes?search=own"),
    adminShort: await list(t, admin, "/api/pastes?search=y-"),
    keyFiles: await list(t, key, "/api/files"),
    fileSearch: await list(t, admin, "/api/files?search=.TXT"),
  };
}

Deno.test("migration 3 indexes shares written before the list indexes, once, at start-up", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = await t.createKey({ text: true, file: true });
  const paste = (auth: string, slug: string, remark: string) =>
    t.request("/api/paste", { method: "POST", auth, json: { content: "x", slug, remark } });
  for (let i = 0; i < 4; i++) {
    assert.equal((await paste(key.auth, `my-${i}`, `own paste ${i}`)).status, 201);
    assert.equal((await paste(admin, `admin-${i}`, i % 2 ? "own words" : "")).status, 201);
  }
  for (const [auth, name] of [[key.auth, "a.txt"], [admin, "b.txt"], [key.auth, "c.bin"]]) {
    const res = await t.request(`/api/upload-direct/${name}`, { method: "PUT", auth, body: "f" });
    assert.equal(res.status, 201);
  }
  const before = await lists(t, admin, key.auth);
  assert.deepEqual(before.keyPastes, { slugs: ["my-3", "my-2", "my-1", "my-0"], total: 4 });
  assert.equal(before.adminSearch.total, 6);
  assert.deepEqual(before.adminShort.slugs, ["my-3", "my-2", "my-1", "my-0"]);
  assert.equal(before.keyFiles.total, 2);
  assert.equal(before.fileSearch.total, 2);

  // A KV from before the indexes: the records and their old indexes, no postings, no totals.
  await wipe(t.kv, [
    "paste_grams",
    "paste_grams_pending",
    "file_grams",
    "file_grams_pending",
    "paste_creator_totals",
    "file_creator_totals",
    "file_bytes_totals",
  ]);
  await t.kv.delete(keys.migrations(LIST_INDEX_MIGRATION.n));
  // ...and written by a build of data format 2.
  const format = keys.meta("data_format");
  await t.kv.set(format, { format: 2, reader_format: 2, written_by: "0.9.0" });
  assert.equal((await list(t, key.auth, "/api/pastes")).total, 0);
  assert.equal((await list(t, admin, "/api/pastes?search=own")).total, 0);

  // The next instance to start applies it under the start-up lease; then it is recorded.
  await using peer = await createPeerApp(t);
  assert.deepEqual(await lists(peer, admin, key.auth), before);
  const stored = (await t.kv.get<{ format: number; reader_format: number }>(format)).value;
  assert.deepEqual([stored?.format, stored?.reader_format], [3, 3]);
  for (const auth of [admin, key.auth]) {
    const files = (await (await peer.request("/api/files", { auth })).json()).data;
    assert.equal(files.total_size, auth === admin ? 3 : 2); // one byte a file
  }
  assert.deepEqual(await lists(t, admin, key.auth), before);
  assert.equal(await migrateListIndexes(t.kv, () => {}), false);
});

Deno.test("recounting creator totals repairs wrong and stale counters; a restore recounts", async () => {
  await using t = await createTestApp({ ENCRYPTION_SECRET: "list-index-test-secret-0123456789" });
  const admin = await t.adminAuth();
  const key = await t.createKey({ text: true });
  for (let i = 0; i < 3; i++) {
    const res = await t.request("/api/paste", {
      method: "POST",
      auth: key.auth,
      json: { content: "x", remark: `kept ${i}` },
    });
    assert.equal(res.status, 201);
  }
  const kv = t.kv;
  const creator = `apikey:${key.id}`;
  await kv.set(keys.shareCreatorTotals("paste", creator, "created"), new Deno.KvU64(99n));
  await kv.set(keys.shareCreatorTotals("paste", "apikey:gone", "created"), new Deno.KvU64(5n));
  await kv.set(keys.shareCreatorTotals("file", creator, "deleted"), new Deno.KvU64(7n));
  await recountCreatorTotals(kv);
  assert.equal(await readCreatorTotal(kv, "paste", creator), 3);
  assert.equal(await readCreatorTotal(kv, "paste", "apikey:gone"), 0);
  assert.equal(await readCreatorTotal(kv, "file", creator), 0);

  // A backup restored over the data brings back postings and totals with the records.
  const made = await t.request("/api/admin/backup/create", {
    method: "POST",
    auth: admin,
    json: { modules: ["text_management"] },
  });
  const file = await made.text();
  await kv.set(keys.shareCreatorTotals("paste", creator, "deleted"), new Deno.KvU64(50n));
  const restored = await t.request("/api/admin/backup/restore?mode=overwrite", {
    method: "POST",
    auth: admin,
    body: file,
  });
  assert.equal(restored.status, 200, await restored.text());
  assert.equal((await list(t, key.auth, "/api/pastes")).total, 3);
  assert.equal((await list(t, key.auth, "/api/pastes?search=KEPT")).total, 3);
  assert.equal((await list(t, admin, "/api/pastes?search=kept 1")).total, 1);
});
