import assert from "node:assert/strict";
import { ADMIN, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { settledRebuild, uploadToMount } from "../../tests/helpers/fs_api.ts";

type Item = { name: string; path: string; type: string; size: number; mount_id: string };

async function send(t: TestApp, method: string, path: string, json?: unknown, auth?: string) {
  const res = await t.request(path, { method, json, auth: auth ?? await t.adminAuth() });
  const body = await res.json();
  return { status: res.status, body, data: body.data };
}

/** A local storage config with its own directory, so mounts on it do not share files. */
async function storage(t: TestApp, dir: string): Promise<string> {
  return (await t.createLocalConfig(dir)).id;
}

async function defaultStorage(t: TestApp): Promise<string> {
  return (await send(t, "GET", "/api/s3-configs")).data[0].id;
}

async function mount(t: TestApp, path: string, configId: string) {
  const res = await send(t, "POST", "/api/mount/create", {
    name: path.slice(1).replaceAll("/", "-"),
    mount_path: path,
    storage_type: "local",
    storage_config_id: configId,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.data as { id: string };
}

async function search(t: TestApp, query: Record<string, string | number>, auth?: string) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await t.request(`/api/fs/search?${qs}`, { auth: auth ?? await t.adminAuth() });
  const body = await res.json();
  return {
    status: res.status,
    body,
    total: body.data?.total as number,
    paths: ((body.data?.items ?? []) as Item[]).map((i) => i.path).sort(),
  };
}

const paths = async (t: TestApp, q: string, extra: Record<string, string> = {}, auth?: string) =>
  (await search(t, { q, ...extra }, auth)).paths;

Deno.test("search: REST writes keep the index current (upload, save, mkdir, rename, delete)", async () => {
  await using t = await createTestApp();
  await mount(t, "/docs", await storage(t, "docs"));
  await uploadToMount(t, "/docs/reports/2024", "Quarterly-Report.PDF", "12345");
  await uploadToMount(t, "/docs", "会议纪要_三月.docx");
  await uploadToMount(t, "/docs", "notes.txt");

  const hit = await search(t, { q: "report" });
  assert.equal(hit.status, 200);
  assert.deepEqual(hit.paths, ["/docs/reports", "/docs/reports/2024/Quarterly-Report.PDF"]);
  const file = hit.body.data.items.find((i: Item) => i.type === "file");
  assert.deepEqual(
    [file.name, file.size, file.mimetype, typeof file.mount_id, typeof file.modified],
    ["Quarterly-Report.PDF", 5, "application/pdf", "string", "string"],
  );
  assert.deepEqual(Object.keys(hit.body.data).sort(), ["items", "limit", "offset", "total"]);
  assert.deepEqual(await paths(t, "2024"), ["/docs/reports/2024"], "parent folders are indexed");
  // CJK: case-insensitive substring over code points, two-character queries use bigrams.
  assert.deepEqual(await paths(t, "纪要"), ["/docs/会议纪要_三月.docx"]);
  assert.deepEqual(await paths(t, "要_三月"), ["/docs/会议纪要_三月.docx"]);
  assert.deepEqual(await paths(t, "QUARTERLY-r"), ["/docs/reports/2024/Quarterly-Report.PDF"]);
  assert.deepEqual(await paths(t, "es"), ["/docs/notes.txt"]);
  assert.deepEqual(await paths(t, "xyz"), []);

  // Saving text updates the entry (size) of an indexed file.
  const saved = await send(t, "POST", "/api/fs/update", {
    path: "/docs/notes.txt",
    content: "hello search",
  });
  assert.equal(saved.status, 200);
  assert.equal((await search(t, { q: "notes" })).body.data.items[0].size, 12);

  // mkdir, then a rename of a file and of a whole folder, then a delete.
  assert.equal((await send(t, "POST", "/api/fs/mkdir", { path: "/docs/Archive" })).status, 201);
  assert.deepEqual(await paths(t, "archive"), ["/docs/Archive"]);
  const rnFile = await send(t, "POST", "/api/fs/rename", {
    oldPath: "/docs/notes.txt",
    newPath: "/docs/diary.txt",
  });
  assert.equal(rnFile.status, 200);
  assert.deepEqual(await paths(t, "notes"), []);
  assert.deepEqual(await paths(t, "diary"), ["/docs/diary.txt"]);
  const rnDir = await send(t, "POST", "/api/fs/rename", {
    oldPath: "/docs/reports",
    newPath: "/docs/Archive/old-reports",
  });
  assert.equal(rnDir.status, 200);
  assert.deepEqual(await paths(t, "report"), [
    "/docs/Archive/old-reports",
    "/docs/Archive/old-reports/2024/Quarterly-Report.PDF",
  ]);
  assert.deepEqual(await paths(t, "2024"), ["/docs/Archive/old-reports/2024"]);
  const rm = await send(t, "DELETE", "/api/fs/batch-remove", { paths: ["/docs/Archive"] });
  assert.equal(rm.data.deleted, 1);
  assert.deepEqual(await paths(t, "report"), [], "a deleted folder's subtree is gone");
  assert.deepEqual(await paths(t, "archive"), []);
  assert.deepEqual(await paths(t, "diary"), ["/docs/diary.txt"]);
});

Deno.test("search: long names, pagination, scopes, and mounts sharing one storage", async () => {
  await using t = await createTestApp();
  const cfg = await storage(t, "shared");
  const docs = await mount(t, "/docs", cfg);
  await mount(t, "/mirror", cfg); // same storage: the same objects show under both
  const long = `${"a".repeat(70)}-needle-${"é".repeat(10)}.txt`;
  await uploadToMount(t, "/docs/deep", long);
  assert.deepEqual(
    await paths(t, "needle-éé", { scope: "mount", mount_id: docs.id }),
    [`/docs/deep/${long}`],
    "a match past the indexed 64 characters is found",
  );
  assert.deepEqual(await paths(t, "NEEDLE"), [`/docs/deep/${long}`, `/mirror/deep/${long}`]);

  for (let i = 0; i < 12; i++) await uploadToMount(t, "/docs/deep/sub", `photo-${i}.jpg`);
  const first = await search(t, { q: "photo", scope: "mount", mount_id: docs.id, limit: 5 });
  const rest = await search(t, {
    q: "photo",
    scope: "mount",
    mount_id: docs.id,
    limit: 5,
    offset: 10,
  });
  assert.deepEqual([first.total, first.paths.length, rest.total, rest.paths.length], [
    12,
    5,
    12,
    2,
  ]);
  const dir = await paths(t, "deep", { scope: "directory", path: "/docs" });
  assert.deepEqual(dir, ["/docs/deep"], "directory scope: below the path");
  assert.deepEqual(await paths(t, "deep", { scope: "directory", path: "/docs/deep" }), []);
  assert.equal(
    (await search(t, { q: "photo", scope: "directory", path: "/docs/deep" })).total,
    12,
  );
  assert.equal((await search(t, { q: "photo", scope: "directory", path: "/" })).total, 24);
  assert.equal((await search(t, { q: "photo-1", scope: "directory", path: "/mirror" })).total, 3);
  assert.equal((await search(t, { q: "photo", limit: 200 })).total, 24);
  assert.equal((await search(t, { q: "photo", limit: 201 })).status, 400);
  assert.equal((await search(t, { q: "photo", scope: "mount" })).status, 400);
  assert.equal((await search(t, { q: "photo", scope: "mount", mount_id: "nope" })).status, 404);
  assert.equal((await search(t, { q: "ph", scope: "directory", path: "/a/../b" })).status, 400);
});

Deno.test("search: copy tasks and WebDAV writes are indexed", async () => {
  await using t = await createTestApp();
  await mount(t, "/src", await storage(t, "src"));
  await mount(t, "/dst", await storage(t, "dst"));
  await uploadToMount(t, "/src/album", "holiday-01.png");
  await uploadToMount(t, "/src/album/more", "holiday-02.png");
  const res = await send(t, "POST", "/api/fs/batch-copy", {
    items: [{ sourcePath: "/src/album", targetPath: "/dst/copied" }],
  });
  assert.equal(res.status, 202);
  for (let i = 0; i < 200; i++) {
    const task = (await send(t, "GET", `/api/fs/tasks/${res.data.task_id}`)).data;
    if (task.status === "completed") break;
    assert.ok(task.status === "pending" || task.status === "running", task.status);
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.deepEqual(await paths(t, "holiday"), [
    "/dst/copied/holiday-01.png",
    "/dst/copied/more/holiday-02.png",
    "/src/album/holiday-01.png",
    "/src/album/more/holiday-02.png",
  ]);
  assert.deepEqual(await paths(t, "copied"), ["/dst/copied"]);

  const basic = "Basic " + btoa(`${ADMIN.username}:${ADMIN.password}`);
  const dav = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const r = await t.request(path, {
      method,
      headers: { authorization: basic, ...headers },
      body: method === "PUT" ? "from webdav" : undefined,
    });
    await r.body?.cancel();
    return r.status;
  };
  assert.equal(await dav("MKCOL", "/dav/dst/inbox"), 201);
  assert.equal(await dav("PUT", "/dav/dst/inbox/%E6%8A%A5%E5%91%8A.txt"), 201);
  assert.deepEqual(await paths(t, "inbox"), ["/dst/inbox"]);
  assert.deepEqual(await paths(t, "报告"), ["/dst/inbox/报告.txt"]);
  const moved = await dav("MOVE", "/dav/dst/inbox/%E6%8A%A5%E5%91%8A.txt", {
    destination: "http://127.0.0.1/dav/dst/inbox/summary.txt",
  });
  assert.equal(moved, 201);
  assert.deepEqual(await paths(t, "报告"), []);
  assert.deepEqual(await paths(t, "summary"), ["/dst/inbox/summary.txt"]);
  const copied = await dav("COPY", "/dav/dst/inbox", {
    destination: "http://127.0.0.1/dav/src/inbox-copy",
  });
  assert.equal(copied, 201);
  assert.deepEqual(await paths(t, "summary"), [
    "/dst/inbox/summary.txt",
    "/src/inbox-copy/summary.txt",
  ]);
  assert.equal(await dav("DELETE", "/dav/dst/inbox"), 204);
  assert.deepEqual(await paths(t, "summary"), ["/src/inbox-copy/summary.txt"]);
});

Deno.test("search: a rebuild indexes files written straight to disk and drops removed ones", async () => {
  await using t = await createTestApp();
  const m = await mount(t, "/ext", await storage(t, "ext"));
  const auto = await settledRebuild(t, m.id);
  assert.equal(auto.state, "completed", "a new mount indexes what is already there");
  await uploadToMount(t, "/ext", "indexed-then-deleted.txt");
  await uploadToMount(t, "/ext/kept", "kept-file.txt");
  await Deno.remove(`${t.dir}/ext/indexed-then-deleted.txt`);
  await Deno.mkdir(`${t.dir}/ext/outside/empty-folder`, { recursive: true });
  await Deno.writeTextFile(`${t.dir}/ext/outside/外部文件.md`, "written elsewhere");
  assert.deepEqual(await paths(t, "外部"), [], "not indexed before the rebuild");
  assert.deepEqual(await paths(t, "deleted"), ["/ext/indexed-then-deleted.txt"]);

  const started = await send(t, "POST", "/api/fs/search/rebuild", { mount_id: m.id });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  let status = started.data;
  for (let i = 0; i < 200 && status.state === "running"; i++) {
    await new Promise((r) => setTimeout(r, 25));
    status = (await send(t, "GET", `/api/fs/search/rebuild?mount_id=${m.id}`)).data;
  }
  assert.equal(status.state, "completed", JSON.stringify(status));
  assert.deepEqual([status.indexed, status.removed], [5, 1]);
  assert.ok(status.started_at && status.finished_at);

  assert.deepEqual(await paths(t, "外部"), ["/ext/outside/外部文件.md"]);
  assert.deepEqual(await paths(t, "empty"), ["/ext/outside/empty-folder"]);
  assert.deepEqual(await paths(t, "deleted"), []);
  assert.deepEqual(await paths(t, "kept"), ["/ext/kept", "/ext/kept/kept-file.txt"]);
  const item = (await search(t, { q: "外部文件" })).body.data.items[0];
  assert.equal(item.size, new TextEncoder().encode("written elsewhere").length);
  assert.equal(
    (await send(t, "POST", "/api/fs/search/rebuild", { mount_id: "nope" })).status,
    404,
  );
});

Deno.test("search: key base paths are separator-aware; inactive mounts are hidden", async () => {
  await using t = await createTestApp();
  await mount(t, "/a", await storage(t, "a"));
  const ab = await mount(t, "/ab", await storage(t, "ab"));
  await uploadToMount(t, "/a", "secret-a.txt");
  await uploadToMount(t, "/a/sub", "secret-sub.txt");
  await uploadToMount(t, "/ab", "secret-ab.txt");
  const key = await t.createKey({ mount_view: true }, { basic_path: "/a" });
  assert.deepEqual(await paths(t, "secret", {}, key.auth), [
    "/a/secret-a.txt",
    "/a/sub/secret-sub.txt",
  ]);
  const dirAb = await search(t, { q: "secret", scope: "directory", path: "/ab" }, key.auth);
  assert.equal(dirAb.status, 403);
  const mountAb = await search(t, { q: "secret", scope: "mount", mount_id: ab.id }, key.auth);
  assert.equal(mountAb.status, 404);
  assert.deepEqual(
    await paths(t, "secret", { scope: "directory", path: "/" }, key.auth),
    ["/a/secret-a.txt", "/a/sub/secret-sub.txt"],
    "a folder above the base path is cut to the base path",
  );

  const sub = await t.createKey({ mount_view: true }, { basic_path: "/a/sub" });
  assert.deepEqual(await paths(t, "secret", {}, sub.auth), ["/a/sub/secret-sub.txt"]);
  assert.deepEqual(await paths(t, "su", {}, sub.auth), ["/a/sub", "/a/sub/secret-sub.txt"]);

  assert.equal((await send(t, "PUT", `/api/mount/${ab.id}`, { is_active: false })).status, 200);
  assert.deepEqual(await paths(t, "secret"), ["/a/secret-a.txt", "/a/sub/secret-sub.txt"]);
  const hidden = await search(t, { q: "secret", scope: "mount", mount_id: ab.id });
  assert.equal(hidden.status, 404);
});

Deno.test("search: access table and the too-short error in both languages", async () => {
  await using t = await createTestApp();
  const m = await mount(t, "/docs", await defaultStorage(t));
  await settledRebuild(t, m.id);
  const viewKey = (await t.createKey({ mount_view: true })).auth;
  const uploadKey = (await t.createKey({ mount_upload: true })).auth;
  const textKey = (await t.createKey({ text: true })).auth;
  const admin = await t.adminAuth();
  const callers: Record<string, string | undefined> = {
    anon: undefined,
    text: textKey,
    upload: uploadKey,
    view: viewKey,
    admin,
  };
  const table: [string, string, unknown, Record<string, number>][] = [
    ["GET", "/api/fs/search?q=docs", undefined, {
      anon: 401,
      text: 403,
      upload: 403,
      view: 200,
      admin: 200,
    }],
    ["GET", `/api/fs/search/rebuild?mount_id=${m.id}`, undefined, {
      anon: 401,
      text: 403,
      upload: 403,
      view: 403,
      admin: 200,
    }],
    ["POST", "/api/fs/search/rebuild", { mount_id: m.id }, {
      anon: 401,
      text: 403,
      upload: 403,
      view: 403,
      admin: 202,
    }],
  ];
  for (const [method, path, json, expected] of table) {
    for (const [who, status] of Object.entries(expected)) {
      const res = await t.request(path, { method, json, auth: callers[who] });
      await res.body?.cancel();
      assert.equal(res.status, status, `${who} ${method} ${path}`);
    }
  }
  for (const q of ["", "a", " a ", "中"]) {
    const zh = await t.request(`/api/fs/search?q=${encodeURIComponent(q)}`, { auth: admin });
    const body = await zh.json();
    assert.deepEqual([zh.status, body.error], [400, "search_too_short"], q);
    assert.equal(body.message, "搜索关键词至少需要 2 个字符");
  }
  const en = await t.request("/api/fs/search?q=a", { auth: admin, lang: "en-US" });
  assert.equal((await en.json()).message, "Search terms need at least 2 characters");
  // Let the rebuild the table started finish before the KV closes.
  for (let i = 0; i < 200; i++) {
    const s = await send(t, "GET", `/api/fs/search/rebuild?mount_id=${m.id}`);
    if (s.data.state !== "running") break;
    await new Promise((r) => setTimeout(r, 25));
  }
});

Deno.test("search index: pairs at the end of names, very long keys, and purging a storage", async () => {
  await using t = await createTestApp();
  const cfg = await storage(t, "idx");
  await mount(t, "/idx", cfg);
  const entry = { type: "file" as const, size: 1, modified: null, indexed_at: Date.now() };
  const deep = `${"deep-folder/".repeat(80)}${"x".repeat(60)}-tail-名前.txt`; // ~1,030 bytes
  await t.services.search.repo.put(cfg, [
    { key: "notes/a.md", entry },
    { key: "notes/md", entry },
    { key: deep, entry },
    { key: `${"y".repeat(1_950)}.txt`, entry }, // too long for a KV key: left out
  ]);
  assert.deepEqual(await paths(t, "md"), ["/idx/notes/a.md", "/idx/notes/md"]);
  assert.deepEqual(await paths(t, "名前"), [`/idx/${deep}`]);
  assert.deepEqual(await paths(t, "xxx-tail"), [`/idx/${deep}`]);
  assert.deepEqual(await paths(t, "yyy"), []);
  await t.services.search.forgetStorage(cfg);
  assert.deepEqual(await paths(t, "md"), []);
  let left = 0;
  for (const prefix of ["search_entries", "search_grams", "search_long"]) {
    for await (const _ of t.kv.list({ prefix: [prefix, cfg] })) left++;
  }
  assert.equal(left, 0);
});
