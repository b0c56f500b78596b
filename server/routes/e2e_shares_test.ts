/**
 * End-to-end encrypted shares through the API (docs/E2E.md): the server stores the ciphertext
 * and a descriptor, hands the ciphertext out only for the access token derived from the key
 * (a counted view, exact under concurrency), keeps neutral names, refuses what it cannot do
 * (re-encrypt, change the token, preview), renders pages without content, and backs up the
 * descriptor.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { e2eFile, e2ePaste } from "../../tests/helpers/e2e.ts";
import { postJson, putParts, startMultipart } from "../../tests/helpers/multipart.ts";
import { mountLocal, uploadToMount } from "../../tests/helpers/fs_api.ts";
import { decryptText } from "../../shared/e2e/payloads.ts";
import { decryptBytes } from "../../shared/e2e/stream.ts";
import { decryptMeta } from "../../shared/e2e/payloads.ts";
import { fromBase64Url } from "../../shared/e2e/bytes.ts";

const MARKER = "e2e-api-marker-7f3a";

async function body(res: Response) {
  // Replies of many shapes, read field by field below.
  // deno-lint-ignore no-explicit-any
  return await res.json() as { code: number; error?: string; data: Record<string, any> };
}

async function createPaste(t: TestApp, json: unknown) {
  const res = await t.request("/api/paste", { method: "POST", auth: await t.adminAuth(), json });
  return { status: res.status, body: await body(res) };
}

function unlock(t: TestApp, slug: string, password: string) {
  return t.request(`/api/paste/${slug}`, { method: "POST", json: { password } });
}

Deno.test("an E2E paste: stored as ciphertext, opened only with the access token, decrypts", async () => {
  await using t = await createTestApp();
  const made = await e2ePaste(`# ${MARKER}\nsecret text`);
  const created = await createPaste(t, made.body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { slug, id } = created.body.data;
  assert.deepEqual(created.body.data.e2e, { version: 1, has_password: false });

  const locked = await t.request(`/api/paste/${slug}`);
  assert.equal(locked.status, 403);
  const lockedBody = await body(locked);
  assert.equal(lockedBody.error, "password_required");
  assert.deepEqual(lockedBody.data.e2e, { version: 1, has_password: false });

  const wrong = await unlock(t, slug, (await e2ePaste("x")).token);
  assert.equal(wrong.status, 401);
  assert.equal((await body(wrong)).error, "wrong_password");

  const opened = await body(await unlock(t, slug, made.token));
  assert.equal(opened.data.content, made.body.content);
  assert.equal(await decryptText(made.secret, opened.data.content), `# ${MARKER}\nsecret text`);

  const list = await body(await t.request("/api/pastes", { auth: await t.adminAuth() }));
  const row = list.data.items.find((p: { id: string }) => p.id === id);
  assert.equal(row.preview, "");
  assert.deepEqual(row.e2e, { version: 1, has_password: false });
  assert.ok(!JSON.stringify(list).includes(MARKER));
});

Deno.test("E2E paste input is checked: token, ciphertext, version; content and token stay", async () => {
  await using t = await createTestApp();
  const made = await e2ePaste("text", "pw");
  const cases: [unknown, string][] = [
    [{ ...made.body, password: "a weak password" }, "e2e_access_invalid"],
    [{ ...made.body, password: undefined }, "e2e_access_invalid"],
    [{ ...made.body, content: "not base64url!" }, "e2e_content_invalid"],
    [{ ...made.body, content: "A".repeat(15_000_000) }, "e2e_content_invalid"],
    [{ ...made.body, e2e: { version: 2, has_password: true } }, "e2e_version_unsupported"],
  ];
  for (const [json, code] of cases) {
    const res = await createPaste(t, json);
    assert.equal(res.status, 400, code);
    assert.equal(res.body.error, code);
  }
  const created = await createPaste(t, made.body);
  assert.equal(created.status, 201);
  const { id } = created.body.data;
  for (const patch of [{ content: "new" }, { password: "other" }, { password: null }]) {
    const res = await t.request(`/api/pastes/${id}`, {
      method: "PUT",
      auth: await t.adminAuth(),
      json: patch,
    });
    assert.equal(res.status, 400, JSON.stringify(patch));
    assert.equal((await body(res)).error, "e2e_not_editable");
  }
  const remark = await t.request(`/api/pastes/${id}`, {
    method: "PUT",
    auth: await t.adminAuth(),
    json: { remark: "still editable" },
  });
  assert.equal(remark.status, 200);
});

Deno.test("a 1-view E2E paste and file open exactly once under concurrency", async () => {
  await using t = await createTestApp();
  const made = await e2ePaste("burn after reading");
  const slug = (await createPaste(t, { ...made.body, max_views: 1 })).body.data.slug;
  const answers = await Promise.all(
    Array.from({ length: 40 }, async () => {
      const res = await unlock(t, slug, made.token);
      return { status: res.status, body: await body(res) };
    }),
  );
  const statuses = answers.map((a) => a.status);
  assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
  assert.equal(statuses.filter((s) => s === 410).length, 39);
  const winner = answers.find((a) => a.status === 200)!.body.data;
  assert.deepEqual(winner.e2e, { version: 1, has_password: false });
  assert.equal(await decryptText(made.secret, winner.content), "burn after reading");

  const file = await e2eFile(new TextEncoder().encode("once"), {
    name: "a.txt",
    type: "text/plain",
  });
  const fd = new FormData();
  fd.set("password", file.token);
  fd.set("max_views", "1");
  fd.set("e2e", JSON.stringify(file.e2e));
  fd.set("file", new Blob([file.sealed]), "encrypted.bin");
  const up = await body(
    await t.request("/api/upload", { method: "POST", auth: await t.adminAuth(), body: fd }),
  );
  const opens = await Promise.all(Array.from({ length: 40 }, async () => {
    const res = await t.request(`/api/public/files/${up.data.slug}/verify`, {
      method: "POST",
      json: { password: file.token },
    });
    await res.body?.cancel();
    return res.status;
  }));
  assert.equal(opens.filter((s) => s === 200).length, 1, String(opens));
  assert.equal(opens.filter((s) => s === 410).length, 39, String(opens));
});

/** Checks an uploaded E2E file: neutral names, locked info, counted open, exact ciphertext. */
async function checkE2EFile(
  t: TestApp,
  slug: string,
  file: Awaited<ReturnType<typeof e2eFile>>,
  plain: Uint8Array,
) {
  const managed = await body(await t.request("/api/files", { auth: await t.adminAuth() }));
  const rec = managed.data.items.find((f: { slug: string }) => f.slug === slug);
  assert.equal(rec.filename, "encrypted.bin");
  assert.equal(rec.mimetype, "application/octet-stream");
  assert.ok(!rec.storage_path.includes(MARKER), rec.storage_path);
  assert.equal(rec.size, file.sealed.length);

  const info = await t.request(`/api/public/files/${slug}`);
  assert.equal(info.status, 403);
  assert.deepEqual((await body(info)).data.e2e, { version: 1, has_password: false });

  const opened = await body(
    await t.request(`/api/public/files/${slug}/verify`, {
      method: "POST",
      json: { password: file.token },
    }),
  );
  assert.equal(opened.code, 200);
  assert.deepEqual(await decryptMeta(file.secret, opened.data.e2e.meta), {
    name: `${MARKER}.txt`,
    type: "text/plain",
  });
  const token = new URL(opened.data.download_url, "http://x").searchParams.get("t")!;
  const stored = new Uint8Array(
    await (await t.request(opened.data.download_url)).arrayBuffer(),
  );
  assert.deepEqual(stored, file.sealed);
  assert.deepEqual(await decryptBytes(file.secret, stored), plain);

  const office = await t.request(`/api/office-preview/${slug}?t=${token}`);
  assert.equal(office.status, 400);
  assert.equal((await body(office)).error, "e2e_server_preview_off");
  const edit = await t.request(`/api/files/${rec.id}`, {
    method: "PUT",
    auth: await t.adminAuth(),
    json: { password: "new" },
  });
  assert.equal((await body(edit)).error, "e2e_not_editable");
}

Deno.test("E2E files through the form, upload-direct and multipart keep neutral names", async () => {
  await using t = await createTestApp();
  const plain = new TextEncoder().encode(`${MARKER} `.repeat(300));
  const meta = { name: `${MARKER}.txt`, type: "text/plain" };

  const viaForm = await e2eFile(plain, meta, null, 64);
  const fd = new FormData();
  fd.set("s3_config_id", "");
  fd.set("password", viaForm.token);
  fd.set("e2e", JSON.stringify(viaForm.e2e));
  fd.set("file", new Blob([viaForm.sealed]), `${MARKER}.txt`); // a careless client's name
  const form = await body(
    await t.request("/api/upload", { method: "POST", auth: await t.adminAuth(), body: fd }),
  );
  assert.equal(form.code, 201, JSON.stringify(form));
  await checkE2EFile(t, form.data.slug, viaForm, plain);

  const viaDirect = await e2eFile(plain, meta);
  const q = new URLSearchParams({ password: viaDirect.token, e2e: JSON.stringify(viaDirect.e2e) });
  const direct = await body(
    await t.request(`/api/upload-direct/encrypted.bin?${q}`, {
      method: "PUT",
      auth: await t.adminAuth(),
      body: viaDirect.sealed,
    }),
  );
  assert.equal(direct.code, 201, JSON.stringify(direct));
  await checkE2EFile(t, direct.data.slug, viaDirect, plain);

  const big = new Uint8Array(6 * 1024 * 1024).map((_, i) => i % 253);
  const viaParts = await e2eFile(big, meta);
  const auth = await t.adminAuth();
  const fields = { filename: `${MARKER}.txt`, password: viaParts.token, e2e: viaParts.e2e };
  const { up, slice } = await startMultipart(
    t,
    auth,
    "/api/s3/multipart/init",
    fields,
    viaParts.sealed,
  );
  assert.ok(up.total_parts >= 2);
  const parts = await putParts(t, up.presigned_urls, slice);
  const done = await postJson(t, auth, "/api/s3/multipart/complete", {
    ...fields,
    file_id: up.file_id,
    parts,
  });
  assert.equal(done.status, 201, JSON.stringify(done.body));
  await checkE2EFile(t, done.body.data.slug, viaParts, big);

  const refused = await postJson(t, auth, "/api/s3/multipart/init", {
    ...fields,
    password: "weak",
    size: 100,
  });
  assert.equal(refused.body.error, "e2e_access_invalid");
});

Deno.test("E2E share pages render without content and count no view", async () => {
  await using t = await createTestApp();
  const made = await e2ePaste(`${MARKER} page`, "pw");
  const { slug } = (await createPaste(t, { ...made.body, max_views: 1 })).body.data;
  for (let i = 0; i < 3; i++) {
    const page = await t.request(`/paste/${slug}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(!html.includes(made.body.content.slice(0, 40)), "no ciphertext in the page");
    assert.ok(html.includes('"e2e":{"version":1,"has_password":true}'), "the descriptor is");
  }
  assert.equal((await unlock(t, slug, made.token)).status, 200);
});

Deno.test("a backup keeps the descriptors, and a restore opens the same shares", async () => {
  const secret = { ENCRYPTION_SECRET: "e2e-backup-test-secret-0123456789abcdef" };
  await using a = await createTestApp(secret);
  const made = await e2ePaste(MARKER);
  const { slug } = (await createPaste(a, made.body)).body.data;
  const res = await a.request("/api/admin/backup/create", {
    method: "POST",
    auth: await a.adminAuth(),
    json: { modules: ["text_management"] },
  });
  const file = await res.text();
  assert.ok(!file.includes(MARKER));
  await using b = await createTestApp(secret);
  const restored = await b.request("/api/admin/backup/restore?mode=merge", {
    method: "POST",
    auth: await b.adminAuth(),
    body: file,
  });
  assert.equal(restored.status, 200, await restored.clone().text());
  const locked = await body(await b.request(`/api/paste/${slug}`));
  assert.deepEqual(locked.data.e2e, { version: 1, has_password: false });
  const opened = await body(await unlock(b, slug, made.token));
  assert.equal(await decryptText(made.secret, opened.data.content), MARKER);
  const list = await body(await b.request("/api/pastes", { auth: await b.adminAuth() }));
  assert.equal(list.data.items[0].preview, "");
  assert.ok(fromBase64Url(opened.data.content));
});

Deno.test("a mount file cannot be shared as an end-to-end encrypted share", async () => {
  await using t = await createTestApp();
  await mountLocal(t, "/media");
  await uploadToMount(t, "/media", "plain.txt", "plaintext the server holds");
  const file = await e2eFile(new Uint8Array(1), { name: "x", type: "text/plain" });
  const res = await t.request("/api/fs/create-share", {
    method: "POST",
    auth: await t.adminAuth(),
    json: { path: "/media/plain.txt", password: file.token, e2e: file.e2e },
  });
  assert.equal(res.status, 400);
  assert.equal((await body(res)).error, "validation_failed");
});
