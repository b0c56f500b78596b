/**
 * Several instances on real engines: two Cubby processes on one denokv (KV Connect) and one
 * SeaweedFS bucket (S3 with SigV4), behind nginx (round robin, X-Forwarded-For), as users deploy
 * it (docs/DEPLOY.md). What a client does through one instance must hold on the other at once,
 * through nginx and through each instance directly; a killed instance must leave nothing
 * half-written; an instance that could not read what the others sealed, or a build too old for
 * the KV, must refuse to start. The in-process twin is server/routes/instances_test.ts.
 *
 * One cluster serves every step, so the engines start once (about 10 s on a quiet machine).
 */
import assert from "node:assert/strict";
import { startDenoKv } from "./helpers/denokv.ts";
import { startSeaweedfs } from "./helpers/seaweedfs.ts";
import { startNginx } from "./helpers/nginx.ts";
import { startServer } from "./helpers/server.ts";
import { RestoreJournal } from "../server/backup/backup_journal.ts";
import { waitFor } from "./helpers/wait.ts";
import { crashingJournalKv } from "./helpers/journal_crash.ts";

const SECRET = "scale-out-test-secret-0123456789";

// deno-lint-ignore no-explicit-any
type Reply = { status: number; body: Record<string, unknown> & { data?: any }; headers: Headers };

/** A JSON request to `base`; the reply's envelope (or its text as `data`). */
async function call(
  base: string,
  method: string,
  path: string,
  opts: { auth?: string; json?: unknown; headers?: Record<string, string>; body?: BodyInit } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = opts.auth;
  if (opts.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.body,
  });
  const text = await res.text();
  let body: Reply["body"];
  try {
    body = JSON.parse(text);
  } catch {
    body = { data: text };
  }
  return { status: res.status, body, headers: res.headers };
}

Deno.test("several instances on denokv, SeaweedFS and nginx", async (t) => {
  await using kv = await startDenoKv();
  await using s3 = await startSeaweedfs("cubby-scale");
  const env = {
    KV_URL: kv.url,
    DENO_KV_ACCESS_TOKEN: kv.token,
    ENCRYPTION_SECRET: SECRET,
    ADMIN_PASSWORD: "", // each instance would make one: exactly one may
    VIEW_FLUSH_MS: "100",
    SWEEP_INTERVAL_MS: "0",
    CUBBY_ALLOW_LOOPBACK_FETCH: "1", // the task step downloads from this test's own server
  };
  // Two instances started at the same moment on an empty KV.
  const started = await Promise.all([startServer(env), startServer(env)]);
  await using a = started[0];
  await using b = started[1];
  await using lb = await startNginx({ upstreams: [a.port, b.port] });
  const bases = { nginx: lb.url, a: a.url, b: b.url };

  let admin = "";
  let adminPassword = "";
  await t.step("start: one admin account, migrations once, both instances up", async () => {
    const made = [a, b].filter((s) => s.output().includes("Cubby created the admin account"));
    assert.equal(made.length, 1, `${a.output()}\n---\n${b.output()}`);
    const password = adminPassword = made[0].output().match(/password: (\S+)/)![1];
    for (const base of Object.values(bases)) {
      const login = await call(base, "POST", "/api/admin/login", {
        json: { username: "admin", password },
      });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      admin = `Bearer ${login.body.data.token}`;
    }
    const conn = await kv.openKv();
    try {
      const migrations = [];
      for await (const e of conn.list({ prefix: ["migrations"] })) migrations.push(e.key[1]);
      assert.deepEqual(migrations.sort(), [1, 2, 3]);
      const applied = [a, b].map((s) => s.output().match(/Migration 3 applied/g)?.length ?? 0);
      assert.equal(applied[0] + applied[1], 1, "migration 3 ran on one instance, once");
      // No local storage on a shared KV.
      const configs = [];
      for await (const e of conn.list({ prefix: ["storage_configs"] })) configs.push(e);
      assert.equal(configs.length, 0);
    } finally {
      conn.close();
    }
    for (const s of [a, b]) assert.doesNotMatch(s.output(), /Uncaught|error:/i);
  });

  let configId = "";
  await t.step(
    "sealed secrets: a storage config sealed through one instance works through the other",
    async () => {
      const made = await call(a.url, "POST", "/api/s3-configs", {
        auth: admin,
        json: {
          name: "SeaweedFS",
          provider_type: "Other",
          endpoint_url: s3.endpoint,
          bucket_name: s3.bucket,
          region: s3.region,
          access_key_id: s3.accessKeyId,
          secret_access_key: s3.secretAccessKey,
          path_style: true,
          is_public: true,
        },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      configId = made.body.data.id;
      const setDefault = await call(b.url, "PUT", `/api/s3-configs/${configId}/set-default`, {
        auth: admin,
      });
      assert.equal(setDefault.status, 200, JSON.stringify(setDefault.body));
      const up = await call(b.url, "PUT", "/api/upload-direct/sealed.txt", {
        auth: admin,
        body: "through b",
      });
      assert.equal(up.status, 201, JSON.stringify(up.body));
      const down = await fetch(`${a.url}/api/file-download/${up.body.data.slug}`);
      assert.equal(await down.text(), "through b");
    },
  );

  await t.step(
    "sessions and API keys hold on every instance, and end on every instance",
    async () => {
      const login = await call(lb.url, "POST", "/api/admin/login", {
        json: { username: "admin", password: "wrong-password" },
      });
      assert.equal(login.status, 401);
      const key = await call(a.url, "POST", "/api/admin/api-keys", {
        auth: admin,
        json: { name: "scale", permissions: { text: true, file: true } },
      });
      assert.equal(key.status, 201, JSON.stringify(key.body));
      const auth = `ApiKey ${key.body.data.key}`;
      for (const base of Object.values(bases)) {
        assert.equal((await call(base, "GET", "/api/test/api-key", { auth })).status, 200, base);
      }
      const del = await call(b.url, "DELETE", `/api/admin/api-keys/${key.body.data.id}`, {
        auth: admin,
      });
      assert.equal(del.status, 200);
      for (const base of Object.values(bases)) {
        assert.equal((await call(base, "GET", "/api/test/api-key", { auth })).status, 401, base);
      }
    },
  );

  let keyAuth = "";
  await t.step("rate limits count across instances; a valid key always passes", async () => {
    const key = await call(a.url, "POST", "/api/admin/api-keys", {
      auth: admin,
      json: { name: "limits", permissions: { text: true, file: true } },
    });
    keyAuth = `ApiKey ${key.body.data.key}`;
    // Through nginx, which alternates between the instances and names the client in
    // X-Forwarded-For (a client on loopback counts as a proxy, so the left entry is the client).
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      const r = await call(lb.url, "GET", "/api/test/api-key", {
        auth: `ApiKey nope-${i}`,
        headers: { "x-forwarded-for": "203.0.113.77" },
      });
      statuses.push(r.status);
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), [429, 429], "the 11th unknown key, on either instance");
    const served = (await lb.accessLog()).split("\n").filter((l) =>
      l.includes("nope-") || l.includes("/api/test/api-key")
    );
    const upstreams = new Set(served.map((l) => l.split(" ").pop()));
    assert.ok(upstreams.size >= 2, `both instances answered: ${[...upstreams].join(", ")}`);
    for (const base of Object.values(bases)) {
      assert.equal((await call(base, "GET", "/api/test/api-key", { auth: keyAuth })).status, 200);
    }
  });

  await t.step("an idempotent write through one instance is replayed by the other", async () => {
    const headers = { "idempotency-key": `scale-${crypto.randomUUID()}` };
    const first = await call(a.url, "POST", "/api/paste", {
      auth: keyAuth,
      headers,
      json: { content: "once" },
    });
    assert.equal(first.status, 201);
    const again = await call(b.url, "POST", "/api/paste", {
      auth: keyAuth,
      headers,
      json: { content: "once" },
    });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(again.body.data.slug, first.body.data.slug);
  });

  await t.step(
    "concurrent creates over both instances and nginx: one custom slug goes to exactly one",
    async () => {
      // Creates that arrive together share commits on each instance (server/kv/commit_groups.ts),
      // and the two instances' commits race on denokv.
      const targets = Object.values(bases);
      const made = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          call(targets[i % 3], "POST", "/api/paste", {
            auth: keyAuth,
            json: { content: `scale create ${i}`, ...(i % 6 === 0 ? { slug: "scale-claim" } : {}) },
          })),
      );
      const claims = made.filter((_, i) => i % 6 === 0);
      assert.equal(claims.filter((r) => r.status === 201).length, 1, JSON.stringify(claims));
      for (const r of claims) if (r.status !== 201) assert.equal(r.body.error, "slug_taken");
      for (const [i, r] of made.entries()) {
        if (i % 6 === 0) continue;
        assert.equal(r.status, 201, JSON.stringify(r.body));
      }
      for (const [i, r] of made.entries()) {
        if (r.status !== 201) continue;
        const raw = await fetch(`${targets[(i + 1) % 3]}/api/raw/${r.body.data.slug}`);
        assert.equal(await raw.text(), `scale create ${i}`);
      }
    },
  );

  await t.step(
    "exact view limits under concurrent views over both instances and nginx",
    async () => {
      const p = await call(a.url, "POST", "/api/paste", {
        auth: admin,
        json: { content: "five views", max_views: 5 },
      });
      const slug = p.body.data.slug;
      const targets = Object.values(bases);
      const statuses = await Promise.all(
        Array.from(
          { length: 45 },
          (_, i) =>
            fetch(`${targets[i % 3]}/api/raw/${slug}`).then(async (r) => {
              await r.body?.cancel();
              return r.status;
            }),
        ),
      );
      assert.equal(
        statuses.filter((s) => s === 200).length,
        5,
        statuses.join(","),
      );
      assert.equal(statuses.filter((s) => s === 410).length, 40);

      // Views of an unlimited share counted on both instances all reach the counter.
      const open = await call(a.url, "POST", "/api/paste", { auth: admin, json: { content: "n" } });
      for (let i = 0; i < 12; i++) {
        await fetch(`${targets[i % 3]}/api/raw/${open.body.data.slug}`).then((r) => r.text());
      }
      await waitFor("12 views in KV", async () => {
        const view = await call(b.url, "GET", `/api/pastes/${open.body.data.id}`, { auth: admin });
        return view.body.data.views === 12 ? true : null;
      });
    },
  );

  await t.step(
    "edits, new passwords, slug changes and deletes hold on the other instance at once",
    async () => {
      const p = await call(a.url, "POST", "/api/paste", {
        auth: admin,
        json: { content: "version-one", slug: "scale-share" },
      });
      const id = p.body.data.id;
      for (const base of [b.url, a.url]) {
        assert.match(await (await fetch(`${base}/paste/scale-share`)).text(), /version-one/);
      }
      await call(a.url, "PUT", `/api/pastes/${id}`, {
        auth: admin,
        json: { content: "version-two" },
      });
      assert.equal(await (await fetch(`${b.url}/api/raw/scale-share`)).text(), "version-two");
      assert.match(await (await fetch(`${b.url}/paste/scale-share`)).text(), /version-two/);
      await call(b.url, "PUT", `/api/pastes/${id}`, { auth: admin, json: { password: "pw" } });
      assert.equal((await call(a.url, "GET", "/api/paste/scale-share")).status, 403);
      await call(a.url, "PUT", `/api/pastes/${id}`, {
        auth: admin,
        json: { slug: "scale-moved", password: "" },
      });
      assert.equal((await call(b.url, "GET", "/api/paste/scale-share")).status, 404);
      assert.equal((await call(b.url, "GET", "/api/paste/scale-moved")).status, 200);
      await call(b.url, "DELETE", "/api/pastes/batch-delete", { auth: admin, json: { ids: [id] } });
      assert.equal((await call(a.url, "GET", "/api/paste/scale-moved")).status, 404);
      assert.equal((await fetch(`${a.url}/paste/scale-moved`)).status, 404);
    },
  );

  await t.step(
    "mount listings cached on one instance show writes through the other; a clear clears both",
    async () => {
      const m = await call(a.url, "POST", "/api/mount/create", {
        auth: admin,
        json: {
          name: "bucket",
          mount_path: "/bucket",
          storage_type: "s3",
          storage_config_id: configId,
          cache_ttl: 300,
        },
      });
      assert.equal(m.status, 201, JSON.stringify(m.body));
      const names = async (base: string) => {
        const r = await call(base, "GET", "/api/fs/list?path=/bucket", { auth: admin });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return (r.body.data.items as { name: string }[]).map((i) => i.name).sort();
      };
      const before = await names(b.url);
      await names(b.url); // cached on b
      const form = new FormData();
      form.set("path", "/bucket");
      form.set("file", new Blob(["hello"]), "fresh.txt");
      const up = await fetch(`${a.url}/api/fs/upload`, {
        method: "POST",
        headers: { authorization: admin },
        body: form,
      });
      assert.equal(up.status, 201, await up.text());
      assert.deepEqual(await names(b.url), [...before, "fresh.txt"].sort());
      const clear = await call(a.url, "POST", "/api/admin/cache/clear", { auth: admin });
      assert.equal(clear.status, 200);
      await waitFor("b's caches emptied", async () => {
        const stats = await call(b.url, "GET", "/api/admin/cache/stats", { auth: admin });
        const items = (stats.body.data.caches as { items: number }[]).reduce(
          (n, c) => n + c.items,
          0,
        );
        return items === 0 ? true : null;
      }, 5_000);
    },
  );

  await t.step("WebDAV locks hold across instances", async () => {
    const basic = "Basic " + btoa(`admin:${adminPassword}`);
    const lock = await fetch(`${a.url}/dav/bucket/locked.txt`, {
      method: "LOCK",
      headers: { authorization: basic, "content-type": "application/xml", timeout: "Second-60" },
      body: `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:">` +
        `<D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>` +
        `<D:owner>scale test</D:owner></D:lockinfo>`,
    });
    assert.ok(lock.status === 200 || lock.status === 201, `${lock.status} ${await lock.text()}`);
    const token = lock.headers.get("lock-token")!;
    assert.match(token, /^<.+>$/);
    const blocked = await fetch(`${b.url}/dav/bucket/locked.txt`, {
      method: "PUT",
      headers: { authorization: basic },
      body: "not yours",
    });
    assert.equal(blocked.status, 423);
    await blocked.body?.cancel();
    const allowed = await fetch(`${b.url}/dav/bucket/locked.txt`, {
      method: "PUT",
      headers: { authorization: basic, if: `(${token})` },
      body: "with the token",
    });
    assert.ok(allowed.status === 201 || allowed.status === 204, String(allowed.status));
    await allowed.body?.cancel();
    const unlock = await fetch(`${lb.url}/dav/bucket/locked.txt`, {
      method: "UNLOCK",
      headers: { authorization: basic, "lock-token": token },
    });
    assert.equal(unlock.status, 204);
    await unlock.body?.cancel();
    // Each instance keeps a mount's locks in memory while its lock epoch stands: the unlock
    // through either one moved it, so both write freely now.
    for (const instance of [a, b]) {
      const free = await fetch(`${instance.url}/dav/bucket/locked.txt`, {
        method: "PUT",
        headers: { authorization: basic },
        body: "unlocked",
      });
      assert.equal(free.status, 204, `${instance.url}: ${free.status}`);
      await free.body?.cancel();
    }
  });

  await t.step(
    "a multipart upload may init, send parts and complete on different instances",
    async () => {
      const size = 6 * 1024 * 1024 + 123;
      const bytes = new Uint8Array(size).map((_, i) => (i * 7) & 0xff);
      const init = await call(a.url, "POST", "/api/s3/multipart/init", {
        auth: admin,
        json: {
          filename: "big.bin",
          size,
          mimetype: "application/octet-stream",
          s3_config_id: configId,
        },
      });
      assert.equal(init.status, 200, JSON.stringify(init.body));
      const { file_id, part_size, presigned_urls } = init.body.data;
      const parts = [];
      for (const { partNumber, url } of presigned_urls as { partNumber: number; url: string }[]) {
        const chunk = bytes.subarray((partNumber - 1) * part_size, partNumber * part_size);
        const put = await fetch(url, { method: "PUT", body: chunk });
        assert.equal(put.status, 200, await put.text());
        parts.push({ partNumber, ETag: put.headers.get("etag")! });
      }
      const listed = await call(b.url, "POST", "/api/s3/multipart/list-parts", {
        auth: admin,
        json: { file_id },
      });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.data.parts.length, parts.length);
      const done = await call(lb.url, "POST", "/api/s3/multipart/complete", {
        auth: admin,
        json: { file_id, parts, filename: "big.bin", mimetype: "application/octet-stream", size },
      });
      assert.equal(done.status, 201, JSON.stringify(done.body));
      const got = new Uint8Array(
        await (await fetch(`${b.url}/api/file-download/${done.body.data.slug}`)).arrayBuffer(),
      );
      assert.equal(got.length, size);
      assert.ok(got.every((v, i) => v === bytes[i]), "the file reads back byte for byte");
    },
  );

  await t.step(
    "kill -9 mid-upload: the other instance keeps serving, nothing half-written",
    async () => {
      const stall = new AbortController();
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent++ < 16) c.enqueue(new Uint8Array(64 * 1024).fill(9));
          // then stall: the upload is under way when the instance dies
        },
      });
      const upload = fetch(`${a.url}/api/upload-direct/half.bin`, {
        method: "PUT",
        headers: { authorization: admin },
        body,
        signal: stall.signal,
      }).then((r) => r.body?.cancel(), () => {});
      await waitFor("the body to be read", () => Promise.resolve(sent >= 16 ? true : null));
      await a.kill9();
      stall.abort();
      await upload;
      assert.equal((await call(b.url, "GET", "/api/version")).status, 200);
      assert.equal((await call(lb.url, "GET", "/api/version")).status, 200);
      const files = await call(b.url, "GET", "/api/files?limit=200", { auth: admin });
      const names = (files.body.data.items as { filename: string }[]).map((f) => f.filename);
      assert.ok(!names.includes("half.bin"), "no record of the interrupted upload");
      await a.restart();
      assert.equal((await call(a.url, "GET", "/api/version")).status, 200);
    },
  );

  await t.step(
    "a task runs on one instance; when that one dies, the other takes it over",
    async () => {
      // A URL that sends a little and then waits, so the task is mid-file when its instance dies.
      let requests = 0;
      let release!: () => void;
      const released = new Promise<void>((r) => release = r);
      const payload = new Uint8Array(256 * 1024).fill(5);
      await using slow = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
        requests++;
        return new Response(
          new ReadableStream<Uint8Array>({
            async start(c) {
              c.enqueue(payload.subarray(0, 1024));
              await released;
              try {
                c.enqueue(payload.subarray(1024));
                c.close();
              } catch { /* the instance that asked is gone */ }
            },
          }),
          { headers: { "content-length": String(payload.length) } },
        );
      });
      await b.kill9(); // only a runs tasks for now
      const task = await call(a.url, "POST", "/api/fs/tasks/download", {
        auth: admin,
        json: { urls: [`http://127.0.0.1:${slow.addr.port}/slow.bin`], path: "/bucket/dl" },
      });
      assert.equal(task.status, 202, JSON.stringify(task.body));
      const id = task.body.data.task_id;
      await waitFor("a to fetch the URL", () => Promise.resolve(requests === 1 ? true : null));
      await b.restart();
      await a.kill9();
      // b resumes once a's lease lapses (15 s), and fetches the URL again.
      await waitFor(
        "b to take the task over",
        () => Promise.resolve(requests === 2 ? true : null),
        40_000,
      );
      release();
      let last: unknown = null;
      const done = await waitFor("the task to complete", async () => {
        const r = await call(b.url, "GET", `/api/fs/tasks/${id}`, { auth: admin });
        last = r.body;
        return ["completed", "failed"].includes(r.body.data?.status) ? r.body.data : null;
      }).catch((err) => {
        throw new Error(`${err.message}: ${JSON.stringify(last)}\n${b.output().slice(-3000)}`);
      });
      assert.equal(done.status, "completed", JSON.stringify(done));
      assert.equal(done.success_count, 1);
      assert.equal(done.failed_count, 0);
      assert.equal(requests, 2, "no third run");
      const file = await fetch(`${b.url}/api/fs/download?path=/bucket/dl/slow.bin`, {
        headers: { authorization: admin },
      });
      assert.equal((await file.arrayBuffer()).byteLength, payload.length);
      await a.restart();
    },
  );

  await t.step(
    "a restore whose instance died mid-way is rolled back by the running instances",
    async () => {
      // Stand in for an instance killed while applying a restore: a journal that has written
      // part of its mutations, whose owner stops (its marker is taken from under it) and whose
      // heartbeat then goes stale. The running instances repair it within seconds.
      const conn = await kv.openKv();
      try {
        for (let i = 0; i < 50; i++) await conn.set(["t_restore", i], `before ${i}`);
        const crashing = crashingJournalKv(conn, "applying");
        const journal = new RestoreJournal(crashing.kv);
        assert.ok(await journal.begin("killed", "overwrite", ["text_management"], 0));
        const mutations = Array.from({ length: 3_000 }, (_, i) => ({
          key: ["t_restore", i],
          value: `restored ${i}`,
        }));
        await journal.run(mutations).catch(() => {});
        assert.ok(crashing.crashed(), "the restore stopped part-way");
        const m = (await conn.get<Record<string, unknown>>(["restore_journal"])).value!;
        await conn.set(["restore_journal"], {
          ...m,
          heartbeat_at: new Date(Date.now() - 60_000).toISOString(),
        });
        await waitFor("a running instance to roll the restore back", async () => {
          return (await conn.get(["restore_journal"])).versionstamp === null ? true : null;
        });
        for (let i = 0; i < 50; i++) {
          assert.equal((await conn.get(["t_restore", i])).value, `before ${i}`);
        }
        assert.equal((await conn.get(["t_restore", 2_999])).versionstamp, null);
        assert.match(a.output() + b.output(), /interrupted restore was found and rolled back/);
      } finally {
        conn.close();
      }
    },
  );

  await t.step(
    "an instance that cannot read what the others sealed, or is too old for the KV, refuses to start",
    async () => {
      await assert.rejects(
        () => startServer({ ...env, ENCRYPTION_SECRET: "another secret" }),
        /does not match the one that sealed the stored secrets/,
      );
      await assert.rejects(
        () => startServer({ ...env, ENCRYPTION_SECRET: "" }),
        /KV_URL is set.*ENCRYPTION_SECRET is not/s,
      );
      const conn = await kv.openKv();
      try {
        const key = ["meta", "data_format"];
        const stored = await conn.get<Record<string, unknown>>(key);
        await conn.set(key, { ...stored.value, reader_format: 999, written_by: "9.9.9" });
        await assert.rejects(() => startServer(env), /written by Cubby 9\.9\.9.*Upgrade/s);
        await conn.set(key, stored.value);
      } finally {
        conn.close();
      }
    },
  );

  await t.step(
    "local storage on a shared KV is warned about at start and on its card",
    async () => {
      const local = await call(a.url, "POST", "/api/s3-configs", {
        auth: admin,
        json: { name: "This host", provider_type: "local" },
      });
      assert.equal(local.status, 201, JSON.stringify(local.body));
      assert.equal(local.body.data.single_host_warning, true);
      const s3 = await call(b.url, "GET", `/api/s3-configs/${configId}`, { auth: admin });
      assert.equal(s3.body.data.single_host_warning, false);
      await b.restart();
      assert.match(b.output(), /Warning: KV_URL is set.*local storage, which lives on one host/s);
    },
  );
});
