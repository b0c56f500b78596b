/**
 * Two instances on one KV: each has its own memory (directory, search and settings caches, slug
 * hints, page caches, view tallies), as processes behind a load balancer have. What a client
 * does through one must hold on the other at once. The same checks run for real against denokv,
 * S3 and nginx in tests/scale_out_test.ts; these run in-process, so they are quick to bisect.
 */
import assert from "node:assert/strict";
import { createPeerApp, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { ADMIN_BASIC, mountLocal, uploadToMount } from "../../tests/helpers/fs_api.ts";
import { adminAuth } from "../services/auth.ts";

async function names(t: TestApp, auth: string, path: string): Promise<string[]> {
  const res = await t.request(`/api/fs/list?path=${encodeURIComponent(path)}`, { auth });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return (body.data.items as { name: string }[]).map((i) => i.name).sort();
}

async function searchNames(t: TestApp, auth: string, q: string): Promise<string[]> {
  const res = await t.request(`/api/fs/search?q=${encodeURIComponent(q)}`, { auth });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return (body.data.items as { name: string }[]).map((i) => i.name).sort();
}

async function json(t: TestApp, method: string, path: string, auth?: string, body?: unknown) {
  const res = await t.request(path, { method, auth, json: body });
  return { status: res.status, body: await res.json().catch(() => null) };
}

Deno.test("a write drops this instance's cached listings above and below it and its storage's searches", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await mountLocal(t, "/c", { cache_ttl: 300 });
  await uploadToMount(t, "/c/a", "first.txt", "1", admin);
  await uploadToMount(t, "/c/b", "other.txt", "1", admin);
  for (const path of ["/c", "/c/a", "/c/b"]) await names(t, admin, path);
  await searchNames(t, admin, "first");
  await searchNames(t, admin, "other");
  const { directory, search } = t.services.caches;
  assert.equal(directory.stats().items, 3);
  assert.equal(search.stats().items, 2);

  // A write into a/ drops the listings of a/ and of the root above it here, not b/'s, and every
  // search of the storage. (The config's epoch moved too, so every instance, this one included,
  // reads b/ anew before serving it again.)
  const prefixes = () => {
    const out: string[] = [];
    directory.deleteWhere((key) => (out.push(key.split("\0")[1]), false));
    return out.sort();
  };
  assert.deepEqual(prefixes(), ["", "a/", "b/"]);
  const body = ReadableStream.from([new Uint8Array(2)]);
  await t.services.fs.upload("/c/a", "second.txt", body, adminAuth());
  assert.deepEqual(prefixes(), ["b/"]);
  assert.equal(search.stats().items, 0);
  assert.deepEqual(await names(t, admin, "/c/a"), ["first.txt", "second.txt"]);
  assert.deepEqual(await names(t, admin, "/c/b"), ["other.txt"]);
});

Deno.test("two instances: a write through one shows in the other's cached listings and searches at once", async () => {
  await using a = await createTestApp();
  await using b = await createPeerApp(a);
  const admin = await a.adminAuth();
  await mountLocal(a, "/c", { cache_ttl: 300 });
  await uploadToMount(a, "/c", "first.txt", "1", admin);

  assert.deepEqual(await names(b, admin, "/c"), ["first.txt"]);
  assert.deepEqual(await names(b, admin, "/c"), ["first.txt"]); // cached on b now
  assert.equal(b.services.caches.directory.stats().hits, 1);
  assert.deepEqual(await searchNames(b, admin, "report"), []); // cached on b now

  await uploadToMount(a, "/c", "report.txt", "2", admin);
  assert.deepEqual(await names(b, admin, "/c"), ["first.txt", "report.txt"]);
  assert.deepEqual(await searchNames(b, admin, "report"), ["report.txt"]);

  const rename = await json(a, "POST", "/api/fs/rename", admin, {
    oldPath: "/c/report.txt",
    newPath: "/c/renamed.txt",
  });
  assert.equal(rename.status, 200, JSON.stringify(rename.body));
  assert.deepEqual(await names(b, admin, "/c"), ["first.txt", "renamed.txt"]);
  assert.deepEqual(await searchNames(b, admin, "report"), []);

  // A write outside Cubby is unseen until a cache clear, which through a clears b too.
  const cfg = (await json(a, "GET", "/api/mount/list", admin)).body.data[0].storage_config_id;
  const driver = await a.services.storageConfigs.driverFor(
    await a.services.storageConfigs.getRecord(cfg),
  );
  await driver.put("outside.txt", "o");
  assert.deepEqual(await names(b, admin, "/c"), ["first.txt", "renamed.txt"]);
  assert.equal((await json(a, "POST", "/api/admin/cache/clear", admin)).status, 200);
  assert.deepEqual(await names(b, admin, "/c"), ["first.txt", "outside.txt", "renamed.txt"]);
  // b also drops its items (its statistics show it), once the clear reaches it.
  await b.request("/api/fs/list?path=/c", { auth: admin }).then((r) => r.body?.cancel());
  assert.ok(b.services.caches.directory.stats().items > 0);
  assert.equal((await json(a, "POST", "/api/admin/cache/clear", admin)).status, 200);
  const deadline = Date.now() + 1_500;
  while (b.services.caches.registry.stats().some((s) => s.items > 0)) {
    assert.ok(Date.now() < deadline, "a clear through one instance empties the other's caches");
    await new Promise((r) => setTimeout(r, 10));
  }
});

Deno.test("two instances: mounts and WebDAV locks changed through one hold on the other at once", async () => {
  // Each instance keeps the mount table and a mount's locks in memory while their epoch stands.
  await using a = await createTestApp();
  await using b = await createPeerApp(a);
  const admin = await a.adminAuth();
  const dav = async (t: TestApp, method: string, path: string, headers = {}, body?: string) => {
    const res = await t.request(path, {
      method,
      headers: { authorization: ADMIN_BASIC, ...headers },
      body,
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const mount = await mountLocal(a, "/c");
  assert.equal((await dav(b, "PUT", "/dav/c/x.txt", {}, "1")).status, 201);
  assert.equal((await dav(b, "PUT", "/dav/c/x.txt", {}, "2")).status, 204);

  const lockBody = `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>` +
    `<D:locktype><D:write/></D:locktype></D:lockinfo>`;
  const lock = await dav(a, "LOCK", "/dav/c/x.txt", { depth: "0" }, lockBody);
  assert.equal(lock.status, 200, lock.text);
  const token = lock.headers.get("lock-token")!.slice(1, -1);
  assert.equal((await dav(b, "PUT", "/dav/c/x.txt", {}, "3")).status, 423, "b sees a's lock");
  assert.equal((await dav(b, "PUT", "/dav/c/x.txt", { if: `(<${token}>)` }, "4")).status, 204);
  const refresh = await dav(a, "LOCK", "/dav/c/x.txt", {
    if: `(<${token}>)`,
    timeout: "Second-120",
  });
  assert.equal(refresh.status, 200);
  assert.match((await dav(b, "PROPFIND", "/dav/c/x.txt", { depth: "0" })).text, /Second-1[12]\d/);
  const unlock = await dav(a, "UNLOCK", "/dav/c/x.txt", { "lock-token": `<${token}>` });
  assert.equal(unlock.status, 204);
  assert.equal((await dav(b, "PUT", "/dav/c/x.txt", {}, "5")).status, 204, "and its unlock");

  const moved = await json(a, "PUT", `/api/mount/${mount.id}`, admin, { mount_path: "/d" });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const old = await dav(b, "PUT", "/dav/c/y.txt", {}, "6");
  // Above the mounts is read-only: a path of no mount answers 403, as on a single instance.
  assert.equal(old.status, 403, `the old path is gone: ${old.status} ${old.text}`);
  assert.equal((await dav(b, "PUT", "/dav/d/y.txt", {}, "7")).status, 201);
  assert.equal((await json(a, "DELETE", `/api/mount/${mount.id}`, admin)).status, 200);
  assert.equal((await dav(b, "PUT", "/dav/d/z.txt", {}, "8")).status, 403, "the mount is gone");
});

Deno.test("two instances: share edits, new passwords, slug changes and deletes hold on the other at once", async () => {
  await using a = await createTestApp();
  await using b = await createPeerApp(a);
  const admin = await a.adminAuth();
  const created = await json(a, "POST", "/api/paste", admin, {
    content: "version-one",
    slug: "shared",
  });
  assert.equal(created.status, 201);
  const id = created.body.data.id;

  // b reads it: its slug hint and its page cache now hold the paste.
  assert.equal((await json(b, "GET", "/api/paste/shared")).body.data.content, "version-one");
  assert.match(await (await b.request("/paste/shared")).text(), /version-one/);

  assert.equal(
    (await json(a, "PUT", `/api/pastes/${id}`, admin, { content: "version-two" })).status,
    200,
  );
  assert.equal((await json(b, "GET", "/api/paste/shared")).body.data.content, "version-two");
  assert.equal(await (await b.request("/api/raw/shared")).text(), "version-two");
  const page = await (await b.request("/paste/shared")).text();
  assert.ok(
    page.includes("version-two") && !page.includes("version-one"),
    "b's page cache shows the edit",
  );

  assert.equal((await json(a, "PUT", `/api/pastes/${id}`, admin, { password: "pw" })).status, 200);
  const locked = await json(b, "GET", "/api/paste/shared");
  assert.equal(locked.status, 403);
  assert.equal(locked.body.error, "password_required");
  assert.ok(!(await (await b.request("/paste/shared")).text()).includes("version-two"));

  const moved = await json(a, "PUT", `/api/pastes/${id}`, admin, { slug: "moved", password: "" });
  assert.equal(moved.status, 200);
  assert.equal((await json(b, "GET", "/api/paste/shared")).status, 404);
  assert.equal((await json(b, "GET", "/api/paste/moved")).body.data.content, "version-two");

  const del = await json(a, "DELETE", "/api/pastes/batch-delete", admin, { ids: [id] });
  assert.equal(del.status, 200);
  assert.equal((await json(b, "GET", "/api/paste/moved")).status, 404);
  assert.equal((await b.request("/paste/moved")).status, 404);
});

Deno.test("two instances: sessions and API keys made through one work on the other, and end on both", async () => {
  await using a = await createTestApp();
  await using b = await createPeerApp(a);
  const admin = await a.adminAuth();
  assert.equal((await json(b, "GET", "/api/test/admin-token", admin)).status, 200);
  const key = await a.createKey({ text: true });
  assert.equal((await json(b, "POST", "/api/paste", key.auth, { content: "k" })).status, 201);
  assert.equal((await json(a, "DELETE", `/api/admin/api-keys/${key.id}`, admin)).status, 200);
  assert.equal((await json(b, "POST", "/api/paste", key.auth, { content: "k" })).status, 401);
  assert.equal((await json(a, "POST", "/api/admin/logout", admin)).status, 200);
  assert.equal((await json(b, "GET", "/api/test/admin-token", admin)).status, 401);
});

Deno.test("two instances: exact view limits under concurrent views spread over both; unlimited tallies all counted", async () => {
  await using a = await createTestApp({ VIEW_FLUSH_MS: "60000" });
  await using b = await createPeerApp(a);
  const admin = await a.adminAuth();
  const limited = await json(a, "POST", "/api/paste", admin, { content: "five", max_views: 5 });
  const slug = limited.body.data.slug;
  const statuses = await Promise.all(
    Array.from(
      { length: 60 },
      (_, i) =>
        (i % 2 ? a : b).request(`/api/raw/${slug}`).then(async (r) => {
          await r.body?.cancel();
          return r.status;
        }),
    ),
  );
  assert.equal(statuses.filter((s) => s === 200).length, 5);
  assert.equal(statuses.filter((s) => s === 410).length, 55);

  const open = await json(a, "POST", "/api/paste", admin, { content: "stats" });
  for (let i = 0; i < 7; i++) {
    await ((i % 2 ? a : b).request(`/api/raw/${open.body.data.slug}`)).then((r) => r.text());
  }
  await a.services.viewTally.flush();
  await b.services.viewTally.flush();
  const stored = await a.kv.get<Deno.KvU64>(["paste_views", open.body.data.id]);
  assert.equal(Number(stored.value?.value ?? 0n), 7);
});

Deno.test("two instances: concurrent creates all land whole, and one custom slug goes to exactly one", async () => {
  await using a = await createTestApp();
  await using b = await createPeerApp(a);
  const admin = await a.adminAuth();
  for (let round = 0; round < 3; round++) {
    const slug = `taken-${round}`;
    // Forty creates at once over both instances: eight claim one custom slug, the rest take
    // random ones. Creates that arrive together may share a commit (commit_groups.ts).
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        json(i % 2 ? a : b, "POST", "/api/paste", admin, {
          content: `paste ${round}.${i}`,
          ...(i % 5 === 0 ? { slug } : {}),
        })),
    );
    const claims = made.filter((_, i) => i % 5 === 0);
    const won = claims.filter((r) => r.status === 201);
    assert.equal(won.length, 1, JSON.stringify(claims.map((r) => r.status)));
    for (const r of claims) if (r.status !== 201) assert.equal(r.body.error, "slug_taken");
    const others = made.filter((_, i) => i % 5 !== 0);
    assert.ok(others.every((r) => r.status === 201), JSON.stringify(others.map((r) => r.status)));
    // Every create is whole on both instances: its content under its slug.
    for (const [i, r] of made.entries()) {
      if (r.status !== 201) continue;
      for (const t of [a, b]) {
        const raw = await t.request(`/api/raw/${r.body.data.slug}`);
        assert.equal(await raw.text(), `paste ${round}.${i}`);
      }
    }
  }
});
