import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";

type Body = { code: number; success: boolean; error?: string; data: Record<string, unknown> };

async function withApp(fn: (t: TestApp) => Promise<void>) {
  await using t = await createTestApp();
  await fn(t);
}

/** Posts a paste with an Idempotency-Key; returns status, body text, parsed body and headers. */
async function postPaste(t: TestApp, auth: string, key: string, json: unknown) {
  const res = await t.request("/api/paste", {
    method: "POST",
    auth,
    json,
    headers: { "Idempotency-Key": key },
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Body, headers: res.headers };
}

async function pasteCount(t: TestApp, auth: string): Promise<number> {
  const res = await t.request("/api/pastes?limit=100", { auth });
  const body = await res.json();
  return body.data.items.length;
}

Deno.test("a repeat with the same key returns the first result and creates nothing new", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    const first = await postPaste(t, auth, "key-1", { content: "hello" });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get("Idempotent-Replayed"), null);
    const again = await postPaste(t, auth, "key-1", { content: "hello" });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get("Idempotent-Replayed"), "true");
    assert.match(again.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(again.text, first.text);
    assert.equal(await pasteCount(t, auth), 1);
    // Without a key, the same body creates a second paste.
    const plain = await t.request("/api/paste", {
      method: "POST",
      auth,
      json: { content: "hello" },
    });
    assert.equal(plain.status, 201);
    assert.equal(await pasteCount(t, auth), 2);
  });
});

Deno.test("concurrent repeats run the request exactly once", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => postPaste(t, auth, "burst", { content: "once" })),
    );
    const created = results.filter((r) => r.status === 201);
    const busy = results.filter((r) => r.status === 409);
    assert.equal(created.length + busy.length, 12, results.map((r) => r.text).join("\n"));
    assert.ok(created.length >= 1);
    for (const r of busy) assert.equal(r.body.error, "idempotency_in_progress");
    // Every 201 carries the one paste that was created.
    assert.equal(new Set(created.map((r) => r.body.data.slug)).size, 1);
    assert.equal(await pasteCount(t, auth), 1);
    const after = await postPaste(t, auth, "burst", { content: "once" });
    assert.equal(after.status, 201);
    assert.equal(after.body.data.slug, created[0].body.data.slug);
  });
});

Deno.test("the same key with a different request is refused", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    assert.equal((await postPaste(t, auth, "k", { content: "one" })).status, 201);
    const other = await postPaste(t, auth, "k", { content: "two" });
    assert.equal(other.status, 422);
    assert.equal(other.body.error, "idempotency_key_reused");
    const otherPath = await t.request("/api/pastes/clear-expired", {
      method: "POST",
      auth,
      json: { clearExpired: true },
      headers: { "Idempotency-Key": "k" },
    });
    assert.equal(otherPath.status, 422);
    assert.equal(await pasteCount(t, auth), 1);
  });
});

Deno.test("another principal cannot replay a result: keys are per principal", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const key = await t.createKey({ text: true });
    const mine = await postPaste(t, admin, "shared-key", { content: "admin's" });
    const theirs = await postPaste(t, key.auth, "shared-key", { content: "admin's" });
    assert.equal(theirs.status, 201);
    assert.equal(theirs.headers.get("Idempotent-Replayed"), null);
    assert.notEqual(theirs.body.data.slug, mine.body.data.slug);
    assert.equal(theirs.body.data.created_by, `apikey:${key.id}`);
    const anon = await postPaste(t, "", "shared-key", { content: "admin's" });
    assert.equal(anon.status, 401);
  });
});

Deno.test("a failed request releases its key, so a retry runs again", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    const taken = await postPaste(t, auth, "other", { content: "x", slug: "taken" });
    assert.equal(taken.status, 201);
    const conflict = await postPaste(t, auth, "retry", { content: "y", slug: "taken" });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.error, "slug_taken");
    const del = await t.request("/api/pastes/batch-delete", {
      method: "DELETE",
      auth,
      json: { ids: [taken.body.data.id] },
    });
    assert.equal(del.status, 200);
    const retry = await postPaste(t, auth, "retry", { content: "y", slug: "taken" });
    assert.equal(retry.status, 201);
    assert.equal(retry.headers.get("Idempotent-Replayed"), null);
  });
});

Deno.test("keys must be 1-255 printable ASCII characters", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    // Too long, inner space, and a control character (DEL) that Headers still lets through.
    for (const bad of ["x".repeat(256), "has space", "del\x7fkey"]) {
      const res = await t.request("/api/paste", {
        method: "POST",
        auth,
        json: { content: "a" },
        headers: { "Idempotency-Key": bad },
      });
      assert.equal(res.status, 400, bad);
      assert.equal((await res.json()).error, "idempotency_key_invalid");
    }
    assert.equal((await postPaste(t, auth, "x".repeat(255), { content: "a" })).status, 201);
    assert.equal(await pasteCount(t, auth), 1);
  });
});

Deno.test("raw uploads, API keys and mounts are idempotent too; kept replies are sealed", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    const upload = () =>
      t.request("/api/upload-direct/a.txt?remark=x", {
        method: "PUT",
        auth,
        body: "file body",
        headers: { "Idempotency-Key": "up-1", "content-type": "text/plain" },
      });
    const u1 = await (await upload()).json();
    const u2res = await upload();
    assert.equal(u2res.headers.get("Idempotent-Replayed"), "true");
    assert.deepEqual(await u2res.json(), u1);
    const files = await (await t.request("/api/files", { auth })).json();
    assert.equal(files.data.items.length, 1);

    const mkKey = () =>
      t.request("/api/admin/api-keys", {
        method: "POST",
        auth,
        json: { name: "cli", permissions: { text: true } },
        headers: { "Idempotency-Key": "key-create" },
      });
    const k1 = await (await mkKey()).json();
    const k2 = await (await mkKey()).json();
    assert.equal(k1.code, 201);
    assert.equal(k2.data.key, k1.data.key);
    // The full key appears nowhere in KV in plain text, not even in the kept reply.
    for await (const entry of t.kv.list({ prefix: [] })) {
      assert.ok(
        !JSON.stringify(entry.value ?? null, (_, v) => typeof v === "bigint" ? String(v) : v)
          .includes(k1.data.key),
        String(entry.key),
      );
    }

    await t.createMount("/m1");
    const mkdir = () =>
      t.request("/api/fs/mkdir", {
        method: "POST",
        auth,
        json: { path: "/m1/new-dir/" },
        headers: { "Idempotency-Key": "mkdir-1" },
      });
    const d1 = await mkdir();
    assert.equal(d1.status, 201, await d1.clone().text());
    const d2 = await mkdir();
    assert.equal(d2.status, 201);
    assert.equal(d2.headers.get("Idempotent-Replayed"), "true");
  });
});

Deno.test("login ignores the header: no reply kept", async () => {
  await withApp(async (t) => {
    const login = () =>
      t.request("/api/admin/login", {
        method: "POST",
        json: { username: "admin", password: "admin-password-123" },
        headers: { "Idempotency-Key": "login" },
      });
    const a = await (await login()).json();
    const b = await login();
    assert.equal(b.headers.get("Idempotent-Replayed"), null);
    assert.notEqual((await b.json()).data.token, a.data.token);
  });
});

Deno.test("the offline queue's writes replay; its file-password check runs again", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    /** Sends one queued item twice with its key, as a replay whose first answer was lost. */
    const twice = async (method: string, path: string, json: unknown, withAuth = true) => {
      const send = () =>
        t.request(path, {
          method,
          auth: withAuth ? auth : undefined,
          json,
          headers: { "Idempotency-Key": `queue-${method}-${path}` },
        });
      const first = await send();
      const firstText = await first.text();
      assert.ok(first.ok, `${method} ${path}: ${firstText}`);
      const again = await send();
      return { firstText, again, againText: await again.text() };
    };
    const paste = JSON.parse((await twice("POST", "/api/paste", { content: "queued" })).firstText);
    const id = paste.data.id;
    const writes: [string, string, unknown][] = [
      ["PUT", `/api/pastes/${id}`, { content: "edited" }],
      ["PUT", "/api/admin/settings/group/1", { max_upload_size: 200 }],
      ["POST", "/api/pastes/clear-expired", { clearExpired: true }],
      ["POST", "/api/admin/cache/clear", null],
      ["POST", "/api/pastes/batch-delete", { ids: [id] }],
    ];
    for (const [method, path, json] of writes) {
      const r = await twice(method, path, json ?? undefined);
      assert.equal(r.again.headers.get("Idempotent-Replayed"), "true", `${method} ${path}`);
      assert.equal(r.againText, r.firstText);
    }
    // verifyFilePassword is a read: the second check runs and sees the share used up.
    const up = await t.request("/api/upload-direct/q.txt?password=pw-1234&max_views=1", {
      method: "PUT",
      auth,
      body: "queued file",
      headers: { "content-type": "text/plain" },
    });
    const slug = (await up.json()).data.slug;
    const verify = await twice("POST", `/api/public/files/${slug}/verify`, {
      password: "pw-1234",
    }, false);
    assert.equal(verify.again.headers.get("Idempotent-Replayed"), null);
    assert.equal(verify.again.status, 410, verify.againText);
  });
});
