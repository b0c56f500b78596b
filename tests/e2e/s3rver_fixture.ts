/**
 * s3rver for browser tests: the npm fake S3 server under Node, on a free 127.0.0.1 port, with
 * one bucket whose CORS rules let a browser upload straight to it (any origin; GET, PUT, POST,
 * HEAD; any header; ETag exposed, which multipart needs). The rules go in through s3rver's
 * `configureBuckets` option as a standard S3 CORSConfiguration document, the same XML a
 * PutBucketCors call sends.
 *
 * Node built-ins only, and no `import.meta`: Playwright loads specs through its own CommonJS
 * transform (tests/helpers/s3rver.ts uses Deno APIs and import.meta, so it cannot be used here).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { findRepoRoot } from "../helpers/server.ts";
import { S3RVER_LAUNCHER } from "../helpers/s3rver_launcher.ts";

export type BrowserS3 = {
  /** e.g. `http://127.0.0.1:41234` */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop: () => Promise<void>;
};

/** The CORS rules a bucket needs for Cubby's browser uploads (presigned PUT and multipart). */
export const BROWSER_UPLOAD_CORS = `<?xml version="1.0" encoding="UTF-8"?>
<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/** Starts s3rver with one CORS-enabled bucket; call `stop()` when done. */
export async function startBrowserS3(bucket = "cubby-e2e"): Promise<BrowserS3> {
  const s3rverDir = join(findRepoRoot(), "node_modules", "s3rver");
  if (!existsSync(join(s3rverDir, "package.json"))) {
    throw new Error(`s3rver is not installed under ${s3rverDir}: run \`deno install\` first`);
  }
  const tmp = await mkdtemp(join(tmpdir(), "cubby-e2e-s3rver-"));
  const launcher = join(tmp, "launch.mjs");
  const corsFile = join(tmp, "cors.xml");
  const dataDir = join(tmp, "data");
  await writeFile(launcher, S3RVER_LAUNCHER);
  await writeFile(corsFile, BROWSER_UPLOAD_CORS);
  const child: ChildProcess = spawn("node", [launcher, s3rverDir, dataDir, bucket, corsFile], {
    // s3rver's continuation tokens use DES, which OpenSSL 3 keeps in its legacy provider.
    env: { ...process.env, NODE_OPTIONS: "--openssl-legacy-provider" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let errText = "";
  child.stderr!.on("data", (c: Uint8Array) => errText += String(c));
  const closed = new Promise<void>((done) => child.on("close", () => done()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${errText}`)), 30_000);
    child.stdout!.on("data", (chunk: Uint8Array) => {
      out += String(chunk);
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(JSON.parse(out.slice(0, nl)).port);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${code}) before listening: ${errText}`));
    });
  }).catch(async (err) => {
    child.kill("SIGKILL");
    await rm(tmp, { recursive: true, force: true });
    throw err;
  });
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    async stop() {
      if (stopped) return;
      stopped = true;
      child.stdin!.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await closed;
      clearTimeout(timer);
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
