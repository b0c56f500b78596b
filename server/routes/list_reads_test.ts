/**
 * A list page costs what its items cost: the KV reads of a page (calls, and the entries lists
 * hand out) are the same with 50 shares stored as with 500. Counting reads is deterministic where
 * timings are not (bench/lists.ts measures the times). Before the list indexes, every page read
 * every record of its scope.
 */
import assert from "node:assert/strict";
import { ulid } from "ulid";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { type Calls, callsDuring, countingKv } from "../../tests/helpers/counting_kv.ts";
import { adminAuth, type Auth } from "../services/auth.ts";
import { PasteCreateSchema } from "../../shared/schemas/pastes.ts";
import { type FileRecord, FileRepo } from "../shares/file_repo.ts";
import { mergeAllPending } from "../shares/share_index_merge.ts";

/** Writes pastes and file records through the services and repos, `n` of each in all. */
async function seed(t: TestApp, key: Auth, from: number, to: number): Promise<void> {
  const files = new FileRepo(t.kv);
  const config = (await t.services.storageConfigs.list(adminAuth()))[0];
  for (let i = from; i < to; i++) {
    const auth = i % 3 === 0 ? key : adminAuth();
    // The first three of each are the needles a search looks for; the rest never match it.
    const remark = i < 3 ? "needle" : `other ${i}`;
    const input = PasteCreateSchema.parse({ content: `paste ${i}`, slug: `p-${i}`, remark });
    await t.services.pastes.create(auth, input);
    const now = new Date().toISOString();
    const rec: FileRecord = {
      id: ulid(),
      slug: `f-${i}`,
      filename: i < 3 ? "needle.txt" : `file-${i}.bin`,
      size: 1,
      mimetype: "application/octet-stream",
      remark: "",
      password_hash: null,
      expires_at: null,
      max_views: 0,
      use_proxy: false,
      storage_config_id: config.id,
      storage_path: `.cubby-shares/f-${i}`,
      etag: "",
      created_at: now,
      updated_at: now,
      created_by: auth.type === "apikey" ? `apikey:${auth.id}` : "admin",
      owns_object: false,
    };
    assert.ok(await files.create(rec));
  }
}

Deno.test("a list page's KV reads are the same with 50 shares as with 500", async () => {
  const calls: Calls = {};
  await using t = await createTestApp({ VIEW_FLUSH_MS: "60000" }, {
    wrapKv: (kv) => countingKv(kv, calls, { listed: true }),
  });
  const admin = await t.adminAuth();
  const key = await t.createKey({ text: true, file: true });
  const keyAuth = await t.services.auth.authenticate(key.auth, "127.0.0.1");
  const kinds: [string, string, string][] = [
    ["admin: pastes, page 1", admin, "/api/pastes"],
    ["admin: pastes, page 3", admin, "/api/pastes?page=3"],
    ["key: own pastes, page 1", key.auth, "/api/pastes"],
    ["admin: paste search", admin, "/api/pastes?search=needle"],
    ["admin: 2-character paste search", admin, "/api/pastes?search=dl"],
    ["key: own paste search", key.auth, "/api/pastes?search=NEEDLE"],
    ["admin: files, page 1", admin, "/api/files"],
    ["key: own files, page 1", key.auth, "/api/files?limit=10"],
    ["admin: file search", admin, "/api/files?search=needle"],
    ["key: own file search", key.auth, "/api/files?search=dle.t"],
    ["dashboard", admin, "/api/admin/dashboard/stats"],
  ];
  const measure = async () => {
    const out = new Map<string, Calls>();
    for (const [name, auth, path] of kinds) {
      await (await t.request(path, { auth })).body?.cancel(); // warm: caches, last-used time
      out.set(
        name,
        await callsDuring(calls, async () => {
          const res = await t.request(path, { auth });
          assert.equal(res.status, 200, `${name}: ${await res.text()}`);
        }),
      );
    }
    return out;
  };
  // The background merge (not running in tests) has turned the new shares into postings.
  await seed(t, keyAuth, 0, 50);
  await mergeAllPending(t.kv);
  const small = await measure();
  await seed(t, keyAuth, 50, 500);
  await mergeAllPending(t.kv);
  const large = await measure();
  for (const [name] of kinds) {
    assert.deepEqual(large.get(name), small.get(name), `${name}: 50 shares, then 500`);
  }
  // The searches found their needles (and only them) at both sizes.
  const found = await (await t.request("/api/pastes?search=needle", { auth: admin })).json();
  assert.deepEqual(found.data.items.map((i: { slug: string }) => i.slug), ["p-2", "p-1", "p-0"]);
  assert.equal(found.data.total, 3);
  const own = await (await t.request("/api/files?search=needle", { auth: key.auth })).json();
  assert.deepEqual(own.data.items.map((i: { slug: string }) => i.slug), ["f-0"]);
  assert.equal((await (await t.request("/api/pastes", { auth: key.auth })).json()).data.total, 167);
});
