/**
 * The paste and file lists page through indexes, take their totals from counters and search an
 * n-gram index (server/shares/share_index.ts). These tests hold them to what a full scan
 * answered: newest first, totals, pages across boundaries, deletes and expiry, key users' own
 * shares only, and searches checked against a brute-force answer over the same data.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { mergeAllPending, mergePending } from "../shares/share_index_merge.ts";

type Item = { id: string; slug: string; remark: string | null; is_expired?: boolean };
type ListData = { items: Item[]; total: number; page?: number; limit: number; offset: number };

async function list(t: TestApp, auth: string, path: string): Promise<ListData> {
  const res = await t.request(path, { auth });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data;
}

/** Every item of a list, page by page with `limit`, checking each page's total. */
async function allPages(t: TestApp, auth: string, base: string, limit: number, total: number) {
  const ids: string[] = [];
  for (let page = 1;; page++) {
    const sep = base.includes("?") ? "&" : "?";
    const data = await list(t, auth, `${base}${sep}page=${page}&limit=${limit}`);
    assert.equal(data.total, total, `${base} page ${page}`);
    assert.deepEqual([data.page, data.offset], [page, (page - 1) * limit]);
    if (data.items.length === 0) break;
    assert.ok(data.items.length <= limit);
    ids.push(...data.items.map((i) => i.id));
  }
  return ids;
}

async function createPaste(t: TestApp, auth: string, json: Record<string, unknown>) {
  const res = await t.request("/api/paste", { method: "POST", auth, json });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data as Item & { created_by: string };
}

Deno.test("paste pages: newest first, totals from counters, pages across boundaries, deletes and expiry", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const a = await t.createKey({ text: true });
  const b = await t.createKey({ text: true });
  const made: { id: string; who: "admin" | "a" | "b" }[] = [];
  for (let i = 0; i < 23; i++) {
    const who = i % 3 === 0 ? "a" : i % 5 === 0 ? "b" : "admin";
    const auth = { admin, a: a.auth, b: b.auth }[who];
    made.push({ id: (await createPaste(t, auth, { content: `paste ${i}` })).id, who });
  }
  // Newest first is id order (ULIDs): two pastes made in one millisecond sort by their random part.
  const newest = (who?: string) =>
    made.filter((m) => !who || m.who === who).map((m) => m.id).sort().reverse();

  for (const limit of [10, 7, 23, 100]) {
    assert.deepEqual(await allPages(t, admin, "/api/pastes", limit, 23), newest());
  }
  assert.deepEqual(await allPages(t, a.auth, "/api/pastes", 3, 8), newest("a"));
  assert.deepEqual(await allPages(t, b.auth, "/api/pastes", 2, 3), newest("b"));
  const mid = await list(t, admin, "/api/pastes?offset=5&limit=4");
  assert.deepEqual(mid.items.map((i) => i.id), newest().slice(5, 9));
  assert.deepEqual([mid.page, mid.offset, mid.total], [2, 5, 23]);
  const far = await list(t, a.auth, "/api/pastes?offset=50");
  assert.deepEqual([far.items, far.total], [[], 8]);

  // Deletes leave the pages and both kinds of total at once.
  const gone = [newest("a")[0], newest("admin")[3], newest("b")[2]];
  const del = await t.request("/api/pastes/batch-delete", {
    method: "POST",
    auth: admin,
    json: { ids: gone },
  });
  assert.equal(del.status, 200);
  const left = (who?: string) => newest(who).filter((id) => !gone.includes(id));
  assert.deepEqual(await allPages(t, admin, "/api/pastes", 10, 20), left());
  assert.deepEqual(await allPages(t, a.auth, "/api/pastes", 3, 7), left("a"));
  assert.deepEqual(await allPages(t, b.auth, "/api/pastes", 10, 2), left("b"));

  // Expiry: listed (as expired once used up) until swept or cleared, then gone from pages and totals.
  const inAnHour = new Date(Date.now() + 3600_000).toISOString();
  const expiring = await createPaste(t, a.auth, { content: "soon", expires_at: inAnHour });
  const once = await createPaste(t, a.auth, { content: "once", max_views: 1 });
  assert.equal((await t.request(`/api/paste/${once.slug}`)).status, 200);
  const withBoth = await list(t, a.auth, "/api/pastes");
  assert.equal(withBoth.total, 9);
  assert.deepEqual(withBoth.items.slice(0, 2).map((i) => [i.id, i.is_expired]), [
    [once.id, true],
    [expiring.id, false],
  ]);
  assert.equal(await t.services.pastes.deleteExpired(Date.now() + 2 * 3600_000), 1);
  const cleared = await t.request("/api/pastes/clear-expired", { method: "POST", auth: a.auth });
  assert.equal((await cleared.json()).data.deleted, 1);
  assert.deepEqual(await allPages(t, a.auth, "/api/pastes", 4, 7), left("a"));
  assert.equal((await list(t, admin, "/api/pastes")).total, 20);
});

/** The search a full scan gave: slug or remark (first 128 characters) holding the query, any case. */
function expected(rows: { id: string; slug: string; remark: string | null }[], q: string) {
  const fold = (s: string) => [...s.normalize("NFC").toLowerCase()].slice(0, 128).join("");
  const needle = q.normalize("NFC").toLowerCase();
  return rows.filter((r) => fold(r.slug).includes(needle) || fold(r.remark ?? "").includes(needle))
    .map((r) => r.id).sort().reverse();
}

Deno.test("paste search answers what a full scan did: slug or remark, any case, 1 to n characters, own shares", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = await t.createKey({ text: true });
  const seeds: [string | null, string | null][] = [
    ["Alpha-One", "Quarterly Report 2024"],
    ["beta_two", "项目会议记录"],
    [null, "测试数据 and more"],
    ["gamma", null],
    ["report-q3", "📋 clipboard ÄÖÜ straße"],
    [null, `${"x".repeat(100)} findme ${"y".repeat(60)} toolate`],
    ["AAAA", "aaa aaaa"],
    ["delta-9", "Remark 11"],
    [null, "Remark 1"],
    ["epsilon", "alpha in the remark"],
  ];
  const rows: { id: string; slug: string; remark: string | null; mine: boolean }[] = [];
  for (const [i, [slug, remark]] of seeds.entries()) {
    const mine = i % 2 === 1;
    const p = await createPaste(t, mine ? key.auth : admin, { content: `s${i}`, slug, remark });
    rows.push({ id: p.id, slug: p.slug, remark: p.remark, mine });
  }
  const queries = [
    "a",
    "A",
    "al",
    "alpha",
    "ALPHA-ONE",
    "report",
    "port 2",
    "会议",
    "项",
    "记录",
    "测试数据",
    "📋",
    "äö",
    "STRASSE",
    "straße",
    "-",
    "_",
    "zz",
    "aaa",
    "aaaa",
    "aaaaa",
    "remark 1",
    "Remark 11",
    "findme",
    "toolate",
    "y",
    " ",
    "nothing-at-all",
    "o",
  ];
  const checkAll = async (state: string) => {
    for (const q of queries) {
      const path = `/api/pastes?limit=100&search=${encodeURIComponent(q)}`;
      const all = await list(t, admin, path);
      const want = expected(rows, q.trim());
      assert.deepEqual(all.items.map((i) => i.id), want, `${state}, admin: ${q}`);
      assert.equal(all.total, want.length, `${state}, admin total: ${q}`);
      const own = await list(t, key.auth, path);
      const wantOwn = expected(rows.filter((r) => r.mine), q.trim());
      assert.deepEqual(own.items.map((i) => i.id), wantOwn, `${state}, key: ${q}`);
    }
  };
  // Just created, every paste is pending; merged, they are postings; then some of each.
  await checkAll("pending");
  assert.equal(await mergeAllPending(t.kv), seeds.length);
  await checkAll("merged");
  for (const [i, remark] of ["Alpha again", "会议 later", null].entries()) {
    const mine = i !== 1;
    const p = await createPaste(t, mine ? key.auth : admin, { content: "more", remark });
    rows.push({ id: p.id, slug: p.slug, remark: p.remark, mine });
  }
  await checkAll("merged and pending");
  // Pages of a search.
  assert.deepEqual(
    await allPages(t, admin, "/api/pastes?search=a", 2, expected(rows, "a").length),
    expected(rows, "a"),
  );

  // Edits move a paste in the index; deletes take it out.
  const alpha = rows[0];
  const put = await t.request(`/api/pastes/${alpha.id}`, {
    method: "PUT",
    auth: admin,
    json: { slug: "renamed-zeta", remark: "no longer quarterly" },
  });
  assert.equal(put.status, 200);
  assert.deepEqual((await list(t, admin, "/api/pastes?search=alpha-one")).items, []);
  assert.deepEqual((await list(t, admin, "/api/pastes?search=zeta")).items.map((i) => i.id), [
    alpha.id,
  ]);
  assert.deepEqual((await list(t, admin, "/api/pastes?search=report%202024")).total, 0);
  assert.equal((await list(t, admin, "/api/pastes?search=quarterly")).total, 1);
  await mergeAllPending(t.kv);
  assert.deepEqual((await list(t, admin, "/api/pastes?search=ALPHA-ONE")).items, []);
  assert.equal((await list(t, admin, "/api/pastes?search=quarterly")).total, 1);
  await t.request("/api/pastes/batch-delete", {
    method: "POST",
    auth: admin,
    json: { ids: [alpha.id] },
  });
  assert.equal((await list(t, admin, "/api/pastes?search=quarterly")).total, 0);
});

async function upload(t: TestApp, auth: string, name: string, query = "") {
  const res = await t.request(`/api/upload-direct/${encodeURIComponent(name)}?${query}`, {
    method: "PUT",
    auth,
    body: `bytes of ${name}`,
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data as { id: string; slug: string };
}

Deno.test("file pages, totals and search; key users see their own; the storage filter still works", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = await t.createKey({ file: true });
  const second = await t.createLocalConfig("second", { is_public: true });
  const made: { id: string; name: string; mine: boolean; second: boolean }[] = [];
  const names = [
    "Report.PDF",
    "photo-01.jpg",
    "会议纪要.docx",
    "notes.txt",
    "report-final.pdf",
    "a.b",
  ];
  for (let i = 0; i < 12; i++) {
    const name = names[i % names.length];
    const mine = i % 3 === 0;
    const onSecond = i % 4 === 0;
    const query = `remark=${encodeURIComponent(`batch ${i}`)}${
      onSecond ? `&s3_config_id=${second.id}` : ""
    }`;
    const f = await upload(t, mine ? key.auth : admin, name, query);
    made.push({ id: f.id, name, mine, second: onSecond });
  }
  const ids = (f: (m: typeof made[number]) => boolean) =>
    made.filter(f).map((m) => m.id).sort().reverse();
  const offsets = async (auth: string, path: string, limit: number, total: number) => {
    const out: string[] = [];
    for (let offset = 0; offset < total + limit; offset += limit) {
      const data = await list(
        t,
        auth,
        `${path}${path.includes("?") ? "&" : "?"}limit=${limit}&offset=${offset}`,
      );
      assert.equal(data.total, total, `${path} at ${offset}`);
      out.push(...data.items.map((i) => i.id));
    }
    return out;
  };
  assert.deepEqual(await offsets(admin, "/api/files", 5, 12), ids(() => true));
  // The first half searched as postings, the rest still pending.
  assert.equal(await mergePending(t.kv, "file", 6), 6);
  assert.deepEqual(await offsets(key.auth, "/api/files", 3, 4), ids((m) => m.mine));
  assert.deepEqual(
    await offsets(admin, "/api/files?search=REPORT", 3, 4),
    ids((m) => /report/i.test(m.name)),
  );
  const batch1 = [11, 10, 1].map((i) => made[i].id);
  assert.deepEqual(await offsets(admin, "/api/files?search=batch%201", 2, 3), batch1);
  assert.deepEqual(await offsets(key.auth, "/api/files?search=batch%201", 2, 0), []);
  assert.deepEqual(await offsets(key.auth, "/api/files?search=BATCH", 3, 4), ids((m) => m.mine));
  assert.deepEqual(
    await offsets(admin, "/api/files?search=%E4%BC%9A%E8%AE%AE", 10, 2),
    ids((m) => m.name.startsWith("会议")),
  );
  assert.deepEqual(
    await offsets(admin, `/api/files?s3_config_id=${second.id}`, 2, 3),
    ids((m) => m.second),
  );
  assert.deepEqual(
    await offsets(key.auth, `/api/files?s3_config_id=${second.id}`, 2, 1),
    ids((m) => m.second && m.mine),
  );
  assert.deepEqual(
    await offsets(admin, `/api/files?search=pdf&s3_config_id=${second.id}`, 10, 2),
    ids((m) => m.second && /pdf/i.test(m.name)),
  );

  const gone = made.filter((m) => m.mine).slice(0, 2).map((m) => m.id);
  const del = await t.request("/api/files/batch-delete", {
    method: "POST",
    auth: key.auth,
    json: { ids: gone },
  });
  assert.equal(del.status, 200);
  assert.deepEqual(
    await offsets(key.auth, "/api/files", 10, 2),
    ids((m) => m.mine && !gone.includes(m.id)),
  );
  assert.deepEqual(await offsets(admin, "/api/files", 4, 10), ids((m) => !gone.includes(m.id)));
});
