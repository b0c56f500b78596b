/**
 * KV round trips per request kind. On a remote KV (denokv, Deno Deploy KV) each one is a network
 * hop, so these counts are what several instances pay per request on top of a local KV. The
 * services run on a real KV wrapped in a counting proxy (tests/helpers/counting_kv.ts); every
 * request is made once first, so caches and slug hints are warm, as on a busy server. The
 * bounds are today's counts: a change that adds a round trip to a hot path fails here first,
 * and bench/README.md ("KV round trips") shows the table this test prints.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { type Calls, callsDuring, countingKv } from "../../tests/helpers/counting_kv.ts";
import { ADMIN_BASIC, mountLocal, settledRebuild } from "../../tests/helpers/fs_api.ts";

type Kind = { name: string; run: (t: TestApp, i: number) => Promise<Response>; most: number };

const total = (c: Calls) => Object.values(c).reduce((a, b) => a + b, 0);

Deno.test("KV round trips per request kind stay within their counts", async () => {
  const calls: Calls = {};
  await using t = await createTestApp({ VIEW_FLUSH_MS: "60000" }, {
    wrapKv: (kv) => countingKv(kv, calls),
  });
  const admin = await t.adminAuth();
  const key = await t.createKey({ text: true, file: true });
  const created = await t.request("/api/paste", {
    method: "POST",
    auth: admin,
    json: { content: "round trips" },
  });
  const slug = (await created.json()).data.slug;
  const upload = await t.request("/api/upload-direct/r.txt", {
    method: "PUT",
    auth: admin,
    body: "file bytes",
  });
  const fileSlug = (await upload.json()).data.slug;
  // A new mount's search index is built in the background; its KV calls must not be counted.
  await settledRebuild(t, (await mountLocal(t, "/team")).id);
  const login = { username: "admin", password: "admin-password-123" };

  const kinds: Kind[] = [
    { name: "JSON view of an open paste", run: () => t.request(`/api/paste/${slug}`), most: 1 },
    { name: "raw view of an open paste", run: () => t.request(`/api/raw/${slug}`), most: 1 },
    { name: "share page /paste/:slug", run: () => t.request(`/paste/${slug}`), most: 1 },
    {
      name: "create a paste with an API key",
      run: (t, i) =>
        t.request("/api/paste", { method: "POST", auth: key.auth, json: { content: `p${i}` } }),
      most: 2,
    },
    {
      name: "admin login",
      run: () => t.request("/api/admin/login", { method: "POST", json: login }),
      most: 5,
    },
    {
      name: "upload-direct of a small file (local)",
      run: (t, i) =>
        t.request(`/api/upload-direct/f${i}.txt`, { method: "PUT", auth: key.auth, body: "x" }),
      most: 6,
    },
    {
      name: "file info /api/public/files/:slug",
      run: () => t.request(`/api/public/files/${fileSlug}`),
      most: 1,
    },
    { name: "file page /file/:slug", run: () => t.request(`/file/${fileSlug}`), most: 1 },
    {
      name: "WebDAV PUT of a small file",
      run: (t, i) =>
        t.request(`/dav/team/w${i}.txt`, {
          method: "PUT",
          headers: { authorization: ADMIN_BASIC },
          body: "x",
        }),
      most: 6,
    },
  ];
  const rows: string[] = [];
  for (const kind of kinds) {
    const warm = await kind.run(t, 0);
    const text = await warm.text();
    assert.ok(warm.status < 300, `${kind.name}: ${warm.status} ${text}`);
    // The fewest of three: a settings read once its cache's TTL ran out, or a key's last-used
    // time written once a minute, is not this request's steady cost.
    let used: Calls | null = null;
    for (let i = 1; i <= 3; i++) {
      let res: Response | null = null;
      const once = await callsDuring(calls, async () => {
        res = await kind.run(t, i);
        await res.arrayBuffer();
      });
      assert.ok(res!.status < 300, `${kind.name}: ${res!.status}`);
      if (!used || total(once) < total(used)) used = once;
    }
    rows.push(`| ${kind.name} | ${total(used!)} | ${JSON.stringify(used)} |`);
    assert.ok(total(used!) <= kind.most, `${kind.name}: ${JSON.stringify(used)}`);
  }
  console.log(["| request | round trips | calls |", "|---|---|---|", ...rows].join("\n"));
});
