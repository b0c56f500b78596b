/**
 * Upload forms with fields in any order (issue 8, finding 1), on both form routes:
 * POST /api/upload (file shares) and POST /api/fs/upload (mount explorer). Bodies are built by
 * hand so the part order, truncation and repeats are exactly what is sent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { concatBytes } from "../../shared/e2e/bytes.ts";

type Part = [name: string, value: string] | [name: string, bytes: Uint8Array, filename: string];

const BOUNDARY = "----cubby-form-test-7f3a";
const enc = new TextEncoder();

/** A multipart body with the parts in the given order. */
function multipart(parts: Part[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    if (p.length === 3) {
      chunks.push(enc.encode(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p[0]}"; filename="${p[2]}"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      ));
      chunks.push(p[1], enc.encode("\r\n"));
    } else {
      chunks.push(enc.encode(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p[0]}"\r\n\r\n${p[1]}\r\n`,
      ));
    }
  }
  chunks.push(enc.encode(`--${BOUNDARY}--\r\n`));
  return concatBytes(chunks);
}

/** POSTs a multipart body (parts in their order, or bytes as they are) as `auth`. */
async function post(t: TestApp, path: string, auth: string, parts: Part[] | Uint8Array) {
  const res = await t.request(path, {
    method: "POST",
    auth,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: (Array.isArray(parts) ? multipart(parts) : parts) as BodyInit,
  });
  return { status: res.status, body: await res.json() };
}

const bytesOf = (text: string) => enc.encode(text);

/** Every regular file below `dir` (relative paths), or [] when it does not exist. */
async function filesUnder(dir: string, base = ""): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(join(dir, base))) {
      const rel = base ? `${base}/${e.name}` : e.name;
      if (e.isDirectory) out.push(...await filesUnder(dir, rel));
      else out.push(rel);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out;
}

async function fileRecords(t: TestApp, admin: string) {
  const res = await t.request("/api/files?limit=200", { auth: admin });
  return (await res.json()).data.items as Record<string, unknown>[];
}

Deno.test("share upload: fields after the file are honoured (password, max_views, expiry, slug)", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const { status, body } = await post(t, "/api/upload", admin, [
    ["file", bytesOf("top secret"), "secret.txt"],
    ["password", "hunter2"],
    ["max_views", "1"],
    ["expires_in", "3600"],
    ["remark", "after the file"],
    ["slug", "late-slug"],
  ]);
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.data.slug, "late-slug");
  assert.equal(body.data.has_password, true);
  assert.equal(body.data.max_views, 1);
  assert.equal(body.data.remark, "after the file");
  assert.ok(body.data.expires_at, "expiry recorded");

  // The password really guards the bytes, and the view limit holds.
  const open = await t.request("/api/file-download/late-slug");
  assert.notEqual(open.status, 200);
  await open.body?.cancel();
  const first = await t.request("/api/file-download/late-slug?password=hunter2");
  assert.equal(first.status, 200);
  assert.equal(await first.text(), "top secret");
  const second = await t.request("/api/file-download/late-slug?password=hunter2");
  assert.equal(second.status, 410);
  await second.body?.cancel();
  // The file came first, so it was spooled; nothing of the spool is left.
  assert.deepEqual(await filesUnder(join(t.dir, "spool")), []);
});

Deno.test("share upload: a storage config sent after the file decides where the bytes go", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const cfg = await t.createLocalConfig("second");
  const { status, body } = await post(t, "/api/upload", admin, [[
    "file",
    bytesOf("elsewhere"),
    "e.txt",
  ], ["s3_config_id", cfg.id]]);
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.data.storage_config_id, cfg.id);
  const stored = (await filesUnder(join(t.dir, "second"))).filter((f) => f.endsWith("e.txt"));
  assert.equal(stored.length, 1);
  const res = await t.request(`/api/file-download/${body.data.slug}`);
  assert.equal(await res.text(), "elsewhere");
});

Deno.test("share upload: config first streams through; fields after the file still count", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const { status, body } = await post(t, "/api/upload", admin, [
    ["s3_config_id", ""],
    ["file", bytesOf("streamed"), "part-name.txt"],
    ["password", "pw-after"],
    ["max_views", "2"],
    ["filename", "final name.txt"],
  ]);
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.data.has_password, true);
  assert.equal(body.data.max_views, 2);
  assert.equal(body.data.filename, "final name.txt");
  // Streamed straight through: the spool folder was never used.
  assert.deepEqual(await filesUnder(join(t.dir, "spool")), []);
  const bad = await post(t, "/api/upload", admin, [["s3_config_id", ""], [
    "file",
    bytesOf("x"),
    "x.txt",
  ], ["max_views", "-1"]]);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error, "max_views_invalid");
  assert.equal((await fileRecords(t, admin)).length, 1, "the invalid late field made no share");
});

Deno.test("fs upload: path and filename after the file decide where it lands", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await t.createMount("/mnt");
  const late = await post(t, "/api/fs/upload", admin, [["file", bytesOf("into sub"), "a.txt"], [
    "path",
    "/mnt/sub",
  ]]);
  assert.equal(late.status, 201, JSON.stringify(late.body));
  assert.equal(late.body.data.path, "/mnt/sub/a.txt");
  const renamed = await post(t, "/api/fs/upload", admin, [["path", "/mnt"], [
    "file",
    bytesOf("named"),
    "p.txt",
  ], ["filename", "b.txt"]]);
  assert.equal(renamed.status, 201, JSON.stringify(renamed.body));
  assert.equal(renamed.body.data.path, "/mnt/b.txt");
  const stored = (await filesUnder(join(t.dir, "storage"))).filter((f) => !f.startsWith("."));
  assert.deepEqual(stored.sort(), ["b.txt", "sub/a.txt"]);
  // Fields first: streams straight through, no spool.
  const first = await post(t, "/api/fs/upload", admin, [["path", "/mnt"], ["filename", "c.txt"], [
    "size",
    "3",
  ], [
    "file",
    bytesOf("abc"),
    "c.txt",
  ]]);
  assert.equal(first.status, 201, JSON.stringify(first.body));
  assert.deepEqual(await filesUnder(join(t.dir, "spool")), []);
});

Deno.test("a truncated or malformed form is 400 and leaves nothing behind", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await t.createMount("/mnt");
  await post(t, "/api/fs/upload", admin, [["path", "/mnt"], ["filename", "keep.txt"], [
    "size",
    "8",
  ], ["file", bytesOf("original"), "keep.txt"]]);
  const big = new Uint8Array(200_000).fill(7);
  const cut = (body: Uint8Array, n: number) => body.subarray(0, body.length - n);
  const cases: { path: string; body: Uint8Array; label: string }[] = [
    // file first (spooled), cut inside the file
    {
      path: "/api/upload",
      body: cut(multipart([["file", big, "a.bin"], ["password", "x"]]), 100_500),
      label: "share, spooled, cut in file",
    },
    // config first (streamed), cut inside the file
    {
      path: "/api/upload",
      body: cut(multipart([["s3_config_id", ""], ["file", big, "a.bin"]]), 50_000),
      label: "share, streamed, cut in file",
    },
    // streamed, cut in the field after the file: the file is whole, the form is not
    {
      path: "/api/upload",
      body: cut(multipart([["s3_config_id", ""], ["file", big, "a.bin"], ["password", "pw"]]), 8),
      label: "share, streamed, cut after file",
    },
    {
      path: "/api/fs/upload",
      body: cut(
        multipart([["path", "/mnt"], ["filename", "keep.txt"], ["size", "4"], [
          "file",
          bytesOf("evil"),
          "keep.txt",
        ], ["remark", "x"]]),
        10,
      ),
      label: "fs, streamed, cut after file (must not overwrite)",
    },
    {
      path: "/api/fs/upload",
      body: cut(multipart([["file", big, "new.bin"], ["path", "/mnt"]]), 70_000),
      label: "fs, spooled, cut in file",
    },
    // A small body arrives in one piece: the form breaks before the spool file is even open.
    {
      path: "/api/fs/upload",
      body: cut(multipart([["file", big.subarray(0, 600), "new.bin"], ["path", "/mnt"]]), 400),
      label: "fs, spooled, small file cut in file",
    },
    {
      path: "/api/upload",
      body: cut(multipart([["file", big.subarray(0, 600), "a.bin"], ["password", "x"]]), 400),
      label: "share, spooled, small file cut in file",
    },
    {
      path: "/api/upload",
      body: cut(multipart([["other", big.subarray(0, 600), "o.bin"]]), 400),
      label: "a file part of another name, cut",
    },
    {
      path: "/api/upload",
      body: multipart([["password", "a"], ["password", "b"], ["file", bytesOf("x"), "x.txt"]]),
      label: "field sent twice",
    },
    {
      path: "/api/upload",
      body: enc.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"\r\n`),
      label: "malformed part header",
    },
  ];
  for (const c of cases) {
    const { status, body } = await post(t, c.path, admin, c.body);
    assert.equal(status, 400, `${c.label}: ${JSON.stringify(body)}`);
    assert.equal(body.error, "upload_form_invalid", c.label);
  }
  assert.deepEqual(await fileRecords(t, admin), [], "no share record");
  const stored = (await filesUnder(join(t.dir, "storage"))).filter((f) =>
    !f.startsWith(".cubby-tmp")
  );
  assert.deepEqual(stored, ["keep.txt"], "no stored object");
  assert.equal(await Deno.readTextFile(join(t.dir, "storage", "keep.txt")), "original");
  assert.deepEqual(await filesUnder(join(t.dir, "storage", ".cubby-tmp")), [], "no temp file");
  assert.deepEqual(await filesUnder(join(t.dir, "spool")), [], "no spool file");
});

Deno.test("a spooled file is bounded by the max upload size (413, spool removed)", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await t.kv.set(["settings", "max_upload_size"], 1);
  await t.kv.set(["settings", "max_upload_size_unit"], "KB");
  const { status, body } = await post(t, "/api/upload", admin, [[
    "file",
    new Uint8Array(5000),
    "big.bin",
  ], ["remark", "late"]]);
  assert.equal(status, 413, JSON.stringify(body));
  assert.equal(body.error, "file_too_large");
  assert.deepEqual(await filesUnder(join(t.dir, "spool")), []);
  assert.deepEqual(await fileRecords(t, admin), []);
});
