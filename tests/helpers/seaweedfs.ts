/**
 * Starts SeaweedFS (`weed mini`: master, volume, filer and S3 gateway in one process) for tests,
 * as a real S3 that verifies SigV4: one identity from an `-s3.config` file, one bucket, every
 * port free and bound to 127.0.0.1, data in a temporary directory. Ready once a signed PUT
 * succeeds (the filer takes a few seconds to join the cluster); stops with `await using`.
 *
 * `weed mini` is used rather than `weed server`: it starts in about 5 s instead of 11, and stops
 * in 1.5 s instead of 17. Its admin server listens too (on a free loopback port), unused.
 *
 * Only `node:` built-ins and the AWS SDK, so that Playwright's setup can import it too.
 */
import {
  type CORSRule,
  CreateBucketCommand,
  DeleteBucketCorsCommand,
  DeleteObjectCommand,
  PutBucketCorsCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EngineProcess, freePorts, startEngine } from "./engine_process.ts";
import { requireEngine } from "./engines.ts";

export type SeaweedfsHandle = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A path-style client with the identity's credentials (destroyed on stop). */
  client: S3Client;
  /** Sets the bucket's CORS rules (PutBucketCors), or deletes them when `null`. */
  setCors: (rules: CORSRule[] | null) => Promise<void>;
  /** What weed printed, for failure messages. */
  output(): string;
  /** Stops SeaweedFS and removes its data directory. */
  stop: () => Promise<void>;
  [Symbol.asyncDispose]: () => Promise<void>;
};

const PORT_FLAGS = [
  "master.port",
  "master.port.grpc",
  "volume.port",
  "volume.port.grpc",
  "filer.port",
  "filer.port.grpc",
  "s3.port",
  "s3.port.grpc",
  "admin.port",
  "admin.port.grpc",
] as const;

function s3Client(endpoint: string, accessKeyId: string, secretAccessKey: string): S3Client {
  return new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    maxAttempts: 1,
  });
}

/** The `weed mini` arguments for a data directory, an S3 config file and ports by flag. */
export function weedArgs(
  dir: string,
  s3Config: string,
  ports: Record<typeof PORT_FLAGS[number], number>,
): string[] {
  return [
    "mini",
    `-dir=${join(dir, "data")}`,
    "-ip=127.0.0.1",
    "-ip.bind=127.0.0.1",
    ...PORT_FLAGS.map((flag) => `-${flag}=${ports[flag]}`),
    "-admin.port.legacy=0",
    "-admin.ui=false",
    "-s3.port.iceberg=0",
    "-s3.port.lance=0",
    "-webdav=false",
    `-filer.localSocket=${join(dir, "filer.sock")}`,
    `-s3.localSocket=${join(dir, "s3.sock")}`,
    `-s3.config=${s3Config}`,
    "-master.telemetry=false",
    // Small volumes, few of them: tests store megabytes, and each volume costs memory.
    "-master.volumeSizeLimitMB=64",
    "-volume.max=16",
  ];
}

/** Starts SeaweedFS with one bucket and one access key; call `stop()` when done. */
export async function startSeaweedfs(bucket = "cubby-test"): Promise<SeaweedfsHandle> {
  const bin = requireEngine("weed");
  const dir = await mkdtemp(join(tmpdir(), "cubby-seaweedfs-"));
  await mkdir(join(dir, "data"));
  const accessKeyId = `CUBBY${randomBytes(8).toString("hex").toUpperCase()}`;
  const secretAccessKey = randomBytes(24).toString("base64url");
  const s3Config = join(dir, "s3.json");
  await writeFile(
    s3Config,
    JSON.stringify({
      identities: [{
        name: "cubby-test",
        credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }],
        actions: ["Admin", "Read", "Write", "List", "Tagging"],
      }],
    }),
  );
  let engine: EngineProcess | null = null;
  let endpoint = "";
  // Ports are free when picked; if another process takes one first, weed exits: pick again.
  for (let attempt = 1; !engine; attempt++) {
    const picked = await freePorts(PORT_FLAGS.length);
    const ports = Object.fromEntries(PORT_FLAGS.map((f, i) => [f, picked[i]])) as Record<
      typeof PORT_FLAGS[number],
      number
    >;
    endpoint = `http://127.0.0.1:${ports["s3.port"]}`;
    const probe = s3Client(endpoint, accessKeyId, secretAccessKey);
    let bucketMade = false;
    try {
      engine = await startEngine({
        name: "SeaweedFS",
        bin,
        args: weedArgs(dir, s3Config, ports),
        cwd: dir,
        ready: async () => {
          if (!bucketMade) {
            await probe.send(new CreateBucketCommand({ Bucket: bucket }));
            bucketMade = true;
          }
          // Writes wait for the filer to join the cluster; a signed PUT proves the whole path.
          await probe.send(new PutObjectCommand({ Bucket: bucket, Key: ".ready", Body: "1" }));
          await probe.send(new DeleteObjectCommand({ Bucket: bucket, Key: ".ready" }));
          return true;
        },
      });
    } catch (err) {
      const busy = /address already in use/i.test(String(err));
      if (!busy || attempt >= 3) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
      await rm(join(dir, "data"), { recursive: true, force: true });
      await mkdir(join(dir, "data"));
    } finally {
      probe.destroy();
    }
  }
  const running = engine;
  const client = s3Client(endpoint, accessKeyId, secretAccessKey);
  let stopped: Promise<void> | null = null;
  const handle: SeaweedfsHandle = {
    endpoint,
    bucket,
    region: "us-east-1",
    accessKeyId,
    secretAccessKey,
    client,
    async setCors(rules) {
      if (rules) {
        await client.send(
          new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: rules } }),
        );
      } else {
        await client.send(new DeleteBucketCorsCommand({ Bucket: bucket }));
      }
    },
    output: () => running.output(),
    stop: () =>
      stopped ??= (async () => {
        client.destroy();
        await running.stop(5_000);
        await rm(dir, { recursive: true, force: true });
      })(),
    [Symbol.asyncDispose]: () => handle.stop(),
  };
  return handle;
}
