/**
 * Issue 3 §6 shell test: a script uploads with the real `curl` binary and an API key, exactly as
 * the README shows (`curl -T file -H "Authorization: ApiKey …" …/api/upload-direct/<name>`), gets
 * a share URL from the printed JSON, and downloads the same bytes with curl again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, type TestServer, whileServing } from "../helpers/server.ts";
import { createApiKey, hashFile, MiB, run, writePseudoRandomFile } from "./helpers.ts";

const SIZE = 3 * MiB + 12_345; // several chunks, and not a multiple of any buffer size

/** `curl -sS -T <file> -H "Authorization: ApiKey <key>" <url>`; returns the parsed JSON. */
async function curlUpload(file: string, key: string, url: string) {
  const out = await run("curl", ["-sS", "-T", file, "-H", `Authorization: ApiKey ${key}`, url]);
  try {
    return JSON.parse(out);
  } catch {
    throw new Error(`curl printed no JSON: ${out}`);
  }
}

/** Downloads `url` with curl into `dest`; returns the response headers, lower-cased names. */
async function curlDownload(url: string, dest: string): Promise<Map<string, string>> {
  const raw = await run("curl", ["-sS", "--fail", "-D", "-", "-o", dest, url]);
  const headers = new Map<string, string>();
  for (const line of raw.split("\r\n").slice(1)) {
    const i = line.indexOf(":");
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return headers;
}

/** The file name a Content-Disposition header carries in `filename*=UTF-8''…`. */
function dispositionName(header: string | undefined): string | null {
  const m = header?.match(/filename\*=UTF-8''([^;]+)/i);
  return m ? decodeURIComponent(m[1]) : null;
}

function withServer(name: string, fn: (server: TestServer, dir: string) => Promise<void>) {
  Deno.test({
    name,
    sanitizeResources: false, // the server subprocess's pipes are closed by stop()
    sanitizeOps: false,
    async fn() {
      const server = await startServer();
      const dir = await Deno.makeTempDir({ prefix: "cubby-shell-" });
      try {
        await whileServing(server, () => fn(server, dir));
      } finally {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
  });
}

withServer("curl -T with an API key prints a share URL that downloads the same bytes", async (
  server,
  dir,
) => {
  const key = await createApiKey(server, { file: true }, "shell");
  const source = join(dir, "report.bin");
  const sourceHash = await writePseudoRandomFile(source, SIZE, 42);

  const body = await curlUpload(source, key, `${server.url}/api/upload-direct/report.bin`);
  assert.equal(body.code, 201, JSON.stringify(body));
  assert.equal(body.success, true);
  const { slug, url, size, filename } = body.data;
  assert.equal(size, SIZE);
  assert.equal(filename, "report.bin");
  assert.match(slug, /^[A-Za-z0-9]+$/);
  assert.equal(url, `${server.url}/file/${slug}`, "data.url is the absolute share page URL");

  // The share page URL answers, and the slug downloads the bytes that were sent.
  const page = await run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", url]);
  assert.equal(page, "200");
  const dest = join(dir, "downloaded.bin");
  const headers = await curlDownload(`${server.url}/api/file-download/${slug}`, dest);
  assert.equal(headers.get("content-length"), String(SIZE));
  assert.equal(dispositionName(headers.get("content-disposition")), "report.bin");
  await run("cmp", [source, dest]);
  assert.equal((await hashFile(dest)).sha256, sourceHash);
});

withServer("a name with spaces and Unicode, URL-encoded in the path, round-trips", async (
  server,
  dir,
) => {
  const key = await createApiKey(server, { file: true }, "shell-unicode");
  const name = "季度 报告 (final) ü.txt";
  const source = join(dir, name);
  await Deno.writeTextFile(source, "Cubby 你好, shell test\n".repeat(1000));

  const body = await curlUpload(
    source,
    key,
    `${server.url}/api/upload-direct/${encodeURIComponent(name)}`,
  );
  assert.equal(body.code, 201, JSON.stringify(body));
  assert.equal(body.data.filename, name);

  const info = JSON.parse(
    await run("curl", ["-sS", `${server.url}/api/public/files/${body.data.slug}`]),
  );
  assert.equal(info.data.filename, name);
  assert.match(info.data.mimetype, /^text\/plain/);

  const dest = join(dir, "downloaded.txt");
  const headers = await curlDownload(`${server.url}/api/file-download/${body.data.slug}`, dest);
  assert.equal(dispositionName(headers.get("content-disposition")), name);
  await run("cmp", [source, dest]);

  // With a trailing slash curl appends the local file name itself, percent-encoded.
  const short = await curlUpload(source, key, `${server.url}/api/upload-direct/?max_views=1`);
  assert.equal(short.code, 201, JSON.stringify(short));
  assert.equal(short.data.filename, name);
  assert.equal(short.data.max_views, 1);
});

withServer("without FILE_SHARE, curl -T is refused and nothing is stored", async (server, dir) => {
  const key = await createApiKey(server, { text: true }, "text-only");
  const source = join(dir, "nope.bin");
  await writePseudoRandomFile(source, 64 * 1024, 3);
  const body = await curlUpload(source, key, `${server.url}/api/upload-direct/nope.bin`);
  assert.equal(body.code, 403, JSON.stringify(body));
  assert.equal(body.success, false);
  const stored: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(join(d, e.name));
      else if (e.name.includes("nope")) stored.push(join(d, e.name));
    }
  };
  await walk(server.dataDir);
  assert.deepEqual(stored, []);
});
