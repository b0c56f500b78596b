/**
 * File management's list counts the files and their bytes on every page, and "Clear expired"
 * deletes the caller's expired and used-up file shares with their stored files.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";
import { shareFile } from "../../tests/helpers/shares.ts";
import { keys } from "../kv/keys.ts";
import { recountCreatorTotals } from "../shares/list_index_migration.ts";

async function countObjects(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    n += e.isDirectory ? await countObjects(`${dir}/${e.name}`) : 1;
  }
  return n;
}

Deno.test("the file list totals count and bytes over every page", async () => {
  await using t = await createTestApp();
  for (const n of [1, 2, 3]) await shareFile(t, "x".repeat(n * 100), `f${n}.txt`);
  const res = await t.request("/api/files?limit=1&offset=0", { auth: await t.adminAuth() });
  const data = (await res.json()).data;
  assert.equal(data.items.length, 1);
  assert.equal(data.total, 3);
  assert.equal(data.total_size, 600);
});

Deno.test("clear expired deletes expired and used-up file shares of the caller, objects too", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const keep = await shareFile(t, "keep", "keep.txt");
  const usedUp = await shareFile(t, "once", "once.txt", { max_views: "1" });
  const soon = await shareFile(t, "soon", "soon.txt");
  // Expire one by its edit route (an expiry must lie ahead), then let it pass.
  const inAMoment = new Date(Date.now() + 300).toISOString();
  const edit = await t.request(`/api/files/${soon.id}`, {
    method: "PUT",
    auth: admin,
    json: { expires_at: inAMoment },
  });
  assert.equal(edit.status, 200);
  const open = await t.request(`/api/public/files/${usedUp.slug}`);
  assert.equal(open.status, 200);
  await open.body?.cancel();
  await new Promise((r) => setTimeout(r, 400));

  // A key's call clears only its own shares (it has none here).
  const key = await t.createKey({ file: true });
  const byKey = await t.request("/api/files/clear-expired", {
    method: "POST",
    auth: key.auth,
    json: { clearExpired: true },
  });
  assert.deepEqual((await byKey.json()).data, { deleted: 0 });

  const res = await t.request("/api/files/clear-expired", {
    method: "POST",
    auth: admin,
    json: { clearExpired: true },
  });
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).data, { deleted: 2 });
  const left = (await (await t.request("/api/files", { auth: admin })).json()).data.items;
  assert.deepEqual(left.map((f: { id: string }) => f.id), [keep.id]);
  assert.equal(await countObjects(`${t.dir}/storage/.cubby-shares`), 1, "their files went too");
  const gone = await t.request(`/api/public/files/${soon.slug}`);
  assert.ok(gone.status === 404 || gone.status === 410, `${gone.status}`);
  await gone.body?.cancel();
});

Deno.test("the file list's bytes come from counters: a key user's own, a search's matches, deletes and a recount", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = await t.createKey({ file: true });
  const upload = async (auth: string, bytes: number, name: string) => {
    const fd = new FormData();
    fd.set("file", new Blob(["y".repeat(bytes)]), name);
    const res = await t.request("/api/upload", { method: "POST", auth, body: fd });
    const body = await res.json();
    assert.equal(res.status, 201, JSON.stringify(body));
    return body.data as { id: string };
  };
  await shareFile(t, "x".repeat(100), "admin-report.txt");
  await upload(key.auth, 20, "key-report.txt");
  const gone = await upload(key.auth, 7, "key-notes.txt");
  const sizeOf = async (auth: string, path: string) => {
    const data = (await (await t.request(path, { auth })).json()).data;
    return [data.total, data.total_size];
  };
  assert.deepEqual(await sizeOf(admin, "/api/files?limit=1"), [3, 127]);
  assert.deepEqual(await sizeOf(key.auth, "/api/files?limit=1"), [2, 27]);
  assert.deepEqual(await sizeOf(admin, "/api/files?limit=1&search=report"), [2, 120]);
  assert.deepEqual(await sizeOf(key.auth, "/api/files?limit=1&search=report"), [1, 20]);
  const del = await t.request("/api/files/batch-delete", {
    method: "POST",
    auth: key.auth,
    json: { ids: [gone.id] },
  });
  assert.equal(del.status, 200);
  assert.deepEqual(await sizeOf(admin, "/api/files"), [2, 120]);
  assert.deepEqual(await sizeOf(key.auth, "/api/files"), [1, 20]);

  // Counters lost or wrong (a data file from before them, a restore) are set again by a recount.
  const kv = t.kv;
  for await (const e of kv.list({ prefix: keys.shareBytesTotalsPrefix("file") })) {
    await kv.delete(e.key);
  }
  await kv.set(
    keys.shareCreatorTotals("file", `apikey:${key.id}`, "bytes_created"),
    new Deno.KvU64(9999n),
  );
  await recountCreatorTotals(kv);
  assert.deepEqual(await sizeOf(admin, "/api/files"), [2, 120]);
  assert.deepEqual(await sizeOf(key.auth, "/api/files"), [1, 20]);
});
