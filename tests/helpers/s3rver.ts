/**
 * Starts the npm `s3rver` fake S3 server for tests, as a Node subprocess on a free 127.0.0.1
 * port with its data in a temporary directory, and creates one bucket.
 *
 * It runs under Node (not Deno) with `NODE_OPTIONS=--openssl-legacy-provider`, because its
 * continuation tokens use DES, which OpenSSL 3 only offers through the legacy provider; without
 * it every paginated listing fails. s3rver accepts only the access key `S3RVER`, and does not
 * verify SigV4 signatures at all. It implements Get/Put/DeleteBucketCors and answers browser
 * CORS requests (preflights and `Origin`) by the bucket's rules; `setCors` sets them.
 */
import {
  type CORSRule,
  DeleteBucketCorsCommand,
  PutBucketCorsCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { S3RVER_LAUNCHER } from "./s3rver_launcher.ts";
import { pathExists } from "./temp.ts";

/** CORS rules that let browsers upload from any origin: PUT/GET/HEAD, any header, ETag exposed. */
export const BROWSER_UPLOAD_CORS: CORSRule[] = [{
  AllowedOrigins: ["*"],
  AllowedMethods: ["PUT", "GET", "HEAD"],
  AllowedHeaders: ["*"],
  ExposeHeaders: ["ETag"],
}];

export type S3rverHandle = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Sets the bucket's CORS rules (PutBucketCors), or deletes them when `null`. */
  setCors: (rules: CORSRule[] | null) => Promise<void>;
  /** Stops the server and removes its data directory. */
  stop: () => Promise<void>;
  /** Stops the server at the end of an `await using` scope. */
  [Symbol.asyncDispose]: () => Promise<void>;
};

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Makes sure node_modules/s3rver is there, running `deno install` once when it is not. */
async function resolveS3rverDir(): Promise<string> {
  const dir = join(REPO_ROOT, "node_modules", "s3rver");
  if (await pathExists(join(dir, "package.json"))) return dir;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["install"],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success || !(await pathExists(join(dir, "package.json")))) {
    throw new Error(`deno install did not provide s3rver: ${new TextDecoder().decode(out.stderr)}`);
  }
  return dir;
}

/** Starts s3rver with one bucket; call `stop()` when done. */
export async function startS3rver(bucket = "cubby-test"): Promise<S3rverHandle> {
  const s3rverDir = await resolveS3rverDir();
  const tmp = await Deno.makeTempDir({ prefix: "cubby-s3rver-" });
  const launcher = join(tmp, "launch.mjs");
  const dataDir = join(tmp, "data");
  await Deno.mkdir(dataDir);
  await Deno.writeTextFile(launcher, S3RVER_LAUNCHER);
  const child = new Deno.Command("node", {
    args: [launcher, s3rverDir, dataDir, bucket],
    env: { NODE_OPTIONS: "--openssl-legacy-provider" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderrText = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let line = "";
  while (!line.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) {
      const status = await child.status;
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
      throw new Error(`s3rver exited (${status.code}) before listening: ${await stderrText}`);
    }
    line += value;
  }
  const { port } = JSON.parse(line.slice(0, line.indexOf("\n")));
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })().catch(() => {});
  let stopped = false;
  const endpoint = `http://127.0.0.1:${port}`;
  const handle: S3rverHandle = {
    endpoint,
    bucket,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    async setCors(rules) {
      const client = new S3Client({
        endpoint,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      });
      try {
        if (rules) {
          await client.send(
            new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: rules } }),
          );
        } else {
          await client.send(new DeleteBucketCorsCommand({ Bucket: bucket }));
        }
      } finally {
        client.destroy();
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await child.stdin.close().catch(() => {});
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
      }, 5000);
      await child.status;
      clearTimeout(timer);
      await stderrText.catch(() => "");
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    },
    [Symbol.asyncDispose]: () => handle.stop(),
  };
  return handle;
}
