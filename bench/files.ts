/**
 * File transfer throughput of the real server (main.ts, a temporary data dir), each against a
 * baseline measured in the same run on the same disk: local uploads vs `cp`, local downloads vs
 * `cat`, and S3 through Cubby vs `@aws-sdk/client-s3` straight against s3rver. Samples the
 * server's peak RSS. Writes the tables into bench/README.md between the bench:files markers.
 *
 *   deno run -A bench/files.ts [--size-mb=1024] [--s3-size-mb=256] [--runs=3] [--no-s3]
 *                              [--no-write] [--no-pin]
 *
 * Unless --no-pin, the server (all its threads) is pinned to core 0 and curl, cp, sync and cat
 * to core 1 with `taskset`, so the client never competes with the server for a core.
 */
import { parseArgs } from "node:util";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { startS3rver } from "../tests/helpers/s3rver.ts";
import {
  adminAuth,
  type FilesServer,
  hashStream,
  MiB,
  readRss,
  run,
  sampleRss,
  startFilesServer,
  writePseudoRandomFile,
} from "../tests/shell/helpers.ts";

const { values: opts } = parseArgs({
  args: Deno.args,
  options: {
    "size-mb": { type: "string", default: "1024" },
    "s3-size-mb": { type: "string", default: "256" },
    runs: { type: "string", default: "3" },
    "no-s3": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    "no-pin": { type: "boolean", default: false },
  },
});
const SIZE_MB = Number(opts["size-mb"]);
const S3_SIZE_MB = Number(opts["s3-size-mb"]);
const RUNS = Number(opts.runs);
const PART_SIZE = 8 * MiB; // what the S3 driver uses for streamed multipart puts
const PIN = !opts["no-pin"];
const README = join(import.meta.dirname!, "README.md");
const START_MARK = "<!-- bench:files:start -->";
const END_MARK = "<!-- bench:files:end -->";

/** `run` on the client core (core 1) unless --no-pin. */
const runClient = (cmd: string, args: string[]) =>
  PIN ? run("taskset", ["-c", "1", cmd, ...args]) : run(cmd, args);

type Peak = { peak: number };
/** Throughput samples (MiB/s) of one operation, and the server's peak RSS during it. */
class Series {
  mibps: number[] = [];
  peak = 0;
  add(sizeMb: number, seconds: number, rss?: Peak) {
    this.mibps.push(sizeMb / seconds);
    if (rss) this.peak = Math.max(this.peak, rss.peak);
  }
  /** The fastest run: other work on a shared machine only ever slows a run down. */
  get best(): number {
    return Math.max(...this.mibps);
  }
}

/** Runs `fn`, timing it and (with a pid) sampling that process's RSS. */
async function timed<T>(fn: () => Promise<T>, pid?: number) {
  const mem = pid ? await sampleRss(pid) : null;
  const t0 = performance.now();
  const value = await fn();
  const seconds = (performance.now() - t0) / 1000;
  return { value, seconds, rss: await mem?.stop() };
}

/** `curl -T` upload to upload-direct; returns the share's id and slug. */
async function curlUpload(server: FilesServer, auth: string, file: string, query = "") {
  const out = await runClient("curl", [
    "-sS",
    "--fail-with-body",
    "-T",
    file,
    "-H",
    `Authorization: ${auth}`,
    `${server.url}/api/upload-direct/bench.bin${query}`,
  ]);
  const body = JSON.parse(out);
  if (body.code !== 201) throw new Error(`upload failed: ${out}`);
  return body.data as { id: string; slug: string; size: number };
}

const curlDownload = (server: FilesServer, slug: string) =>
  runClient("curl", [
    "-sS",
    "--fail",
    "-o",
    "/dev/null",
    `${server.url}/api/file-download/${slug}`,
  ]);

/** Downloads once with fetch and compares the SHA-256, so a fast wrong answer cannot pass. */
async function verify(server: FilesServer, slug: string, sha256: string) {
  const res = await fetch(`${server.url}/api/file-download/${slug}`);
  const got = await hashStream(res.body!);
  if (got.sha256 !== sha256) throw new Error(`download of ${slug} differs from the source`);
}

async function deleteShare(server: FilesServer, auth: string, id: string) {
  const res = await fetch(`${server.url}/api/files/batch-delete`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ ids: [id], delete_mode: "both" }),
  });
  await res.body?.cancel();
}

async function localRuns(server: FilesServer, auth: string, src: string, sha256: string) {
  const r = {
    up: new Series(),
    down: new Series(),
    cp: new Series(),
    cpSync: new Series(),
    cat: new Series(),
  };
  const dst = join(src, "..", "copy.bin");
  // Every upload runs before any download, so the upload's peak RSS is its own and not what a
  // download left resident.
  let last: { id: string; slug: string } | null = null;
  for (let i = 0; i < RUNS; i++) {
    const cp = await timed(() => runClient("cp", [src, dst]));
    const sync = await timed(() => runClient("sync", ["--data", dst]));
    r.cp.add(SIZE_MB, cp.seconds);
    r.cpSync.add(SIZE_MB, cp.seconds + sync.seconds);
    await Deno.remove(dst);
    const up = await timed(() => curlUpload(server, auth, src), server.pid);
    r.up.add(SIZE_MB, up.seconds, up.rss);
    if (last) await deleteShare(server, auth, last.id);
    last = up.value;
    console.log(
      `local run ${i + 1}: upload ${(SIZE_MB / up.seconds).toFixed(0)} MiB/s (peak RSS ` +
        `${((up.rss?.peak ?? 0) / MiB).toFixed(0)} MiB), cp ${(SIZE_MB / cp.seconds).toFixed(0)} ` +
        `(+fdatasync ${(SIZE_MB / (cp.seconds + sync.seconds)).toFixed(0)})`,
    );
  }
  await verify(server, last!.slug, sha256);
  for (let i = 0; i < RUNS; i++) {
    const down = await timed(() => curlDownload(server, last!.slug), server.pid);
    r.down.add(SIZE_MB, down.seconds, down.rss);
    const cat = await timed(() =>
      new Deno.Command(PIN ? "taskset" : "cat", {
        args: PIN ? ["-c", "1", "cat", src] : [src],
        stdout: "null",
      }).output()
    );
    r.cat.add(SIZE_MB, cat.seconds);
    console.log(
      `local run ${i + 1}: download ${(SIZE_MB / down.seconds).toFixed(0)} MiB/s, cat ` +
        `${(SIZE_MB / cat.seconds).toFixed(0)}`,
    );
  }
  await deleteShare(server, auth, last!.id);
  return r;
}

async function s3Runs(server: FilesServer, auth: string, src: string, sha256: string) {
  const s3 = await startS3rver("cubby-bench");
  try {
    const cfgRes = await fetch(`${server.url}/api/s3-configs`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({
        name: "s3rver",
        provider_type: "minio",
        endpoint_url: s3.endpoint,
        bucket_name: s3.bucket,
        access_key_id: s3.accessKeyId,
        secret_access_key: s3.secretAccessKey,
        path_style: true,
        is_public: true,
      }),
    });
    const cfg = (await cfgRes.json()).data;
    if (!cfg?.id) throw new Error(`creating the s3rver config answered ${cfgRes.status}`);
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    const Bucket = s3.bucket;
    const size = S3_SIZE_MB * MiB;
    const r = {
      up: new Series(),
      down: new Series(),
      directMultipart: new Series(),
      directPut: new Series(),
      directGet: new Series(),
    };
    for (let i = 0; i < RUNS; i++) {
      const up = await timed(
        () => curlUpload(server, auth, src, `?s3_config_id=${cfg.id}`),
        server.pid,
      );
      r.up.add(S3_SIZE_MB, up.seconds, up.rss);
      const down = await timed(() => curlDownload(server, up.value.slug), server.pid);
      r.down.add(S3_SIZE_MB, down.seconds, down.rss);
      if (i === 0) await verify(server, up.value.slug, sha256);
      await deleteShare(server, auth, up.value.id);

      const Key = `direct/run-${i}.bin`;
      const mp = await timed(async () => {
        const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
        const parts = [];
        const file = await Deno.open(src);
        try {
          for (let n = 1;; n++) {
            const part = new Uint8Array(
              Math.max(0, Math.min(PART_SIZE, size - (n - 1) * PART_SIZE)),
            );
            if (part.length === 0) break;
            for (let off = 0; off < part.length;) {
              const got = await file.read(part.subarray(off));
              if (got === null) throw new Error(`${src} is shorter than ${size} bytes`);
              off += got;
            }
            const { ETag } = await client.send(
              new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: n, Body: part }),
            );
            parts.push({ PartNumber: n, ETag });
          }
        } finally {
          file.close();
        }
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key,
            UploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
      });
      r.directMultipart.add(S3_SIZE_MB, mp.seconds);
      const put = await timed(() =>
        client.send(
          new PutObjectCommand({ Bucket, Key, Body: createReadStream(src), ContentLength: size }),
        )
      );
      r.directPut.add(S3_SIZE_MB, put.seconds);
      const get = await timed(async () => {
        const res = await client.send(new GetObjectCommand({ Bucket, Key }));
        let n = 0;
        for await (const chunk of res.Body as AsyncIterable<Uint8Array>) n += chunk.byteLength;
        if (n !== size) throw new Error(`direct GET returned ${n} bytes, not ${size}`);
      });
      r.directGet.add(S3_SIZE_MB, get.seconds);
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
      console.log(
        `s3 run ${i + 1}: via Cubby up ${(S3_SIZE_MB / up.seconds).toFixed(0)} / down ` +
          `${(S3_SIZE_MB / down.seconds).toFixed(0)} MiB/s; direct multipart ` +
          `${(S3_SIZE_MB / mp.seconds).toFixed(0)}, put ${(S3_SIZE_MB / put.seconds).toFixed(0)}` +
          `, get ${(S3_SIZE_MB / get.seconds).toFixed(0)}`,
      );
    }
    client.destroy();
    return r;
  } finally {
    await s3.stop();
  }
}

const f0 = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const ratio = (a: Series, b: Series) => `${((100 * a.best) / b.best).toFixed(0)}%`;
const rss = (s: Series, idle: number) => `${f0(s.peak / MiB)} MiB (+${f0((s.peak - idle) / MiB)})`;

async function cpuModel(): Promise<string> {
  const info = await Deno.readTextFile("/proc/cpuinfo").catch(() => "");
  return info.match(/model name\s*:\s*(.+)/)?.[1]?.trim() ?? "unknown CPU";
}

async function writeReadme(section: string): Promise<void> {
  const text = await Deno.readTextFile(README);
  const start = text.indexOf(START_MARK);
  const end = text.indexOf(END_MARK);
  const block = `${START_MARK}\n${section}\n${END_MARK}`;
  const next = start >= 0 && end > start
    ? text.slice(0, start) + block + text.slice(end + END_MARK.length)
    : `${text.trimEnd()}\n\n## File transfer results\n\n${block}\n`;
  await Deno.writeTextFile(README, next);
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", README] }).output();
}

if (import.meta.main) {
  const load = Deno.loadavg()[0];
  const tmp = await Deno.makeTempDir({ prefix: "cubby-bench-files-" });
  const server = await startFilesServer(Math.ceil(SIZE_MB / 1024) + 1);
  try {
    if (PIN) await run("taskset", ["-a", "-c", "-p", "0", String(server.pid)]);
    const [a, b] = [await Deno.stat(tmp), await Deno.stat(server.dataDir)];
    if (a.dev !== b.dev) console.warn("warning: the source and DATA_DIR are on different disks");
    const src = join(tmp, "source.bin");
    console.log(`writing ${SIZE_MB} MiB of pseudo-random bytes to ${src}`);
    const sha256 = await writePseudoRandomFile(src, SIZE_MB * MiB, 1);
    const auth = await adminAuth(server);
    const idle = (await readRss(server.pid)).rss;
    const local = await localRuns(server, auth, src, sha256);
    let s3 = null;
    if (!opts["no-s3"]) {
      await Deno.remove(src);
      const s3src = join(tmp, "s3-source.bin");
      const s3sha = await writePseudoRandomFile(s3src, S3_SIZE_MB * MiB, 2);
      s3 = await s3Runs(server, auth, s3src, s3sha);
    }
    const rows = [
      "| Operation | Through Cubby | Baseline (same run, same disk) | Baseline | Cubby / baseline" +
      " | Server peak RSS |",
      "| --- | ---: | --- | ---: | ---: | ---: |",
      `| Upload ${SIZE_MB} MiB: \`curl -T\` → \`PUT /api/upload-direct\`, local (fdatasync, ` +
      `rename) | ${f0(local.up.best)} MiB/s | \`cp\` + \`sync --data\` (as durable) | ` +
      `${f0(local.cpSync.best)} MiB/s | ${ratio(local.up, local.cpSync)} | ${
        rss(local.up, idle)
      } |`,
      `| ″ | ″ | \`cp\` alone (page cache) | ${f0(local.cp.best)} MiB/s | ` +
      `${ratio(local.up, local.cp)} | |`,
      `| Download ${SIZE_MB} MiB: \`GET /api/file-download/{slug}\` → \`curl -o /dev/null\` | ` +
      `${f0(local.down.best)} MiB/s | \`cat file > /dev/null\` | ${f0(local.cat.best)} ` +
      `MiB/s | ${ratio(local.down, local.cat)} | ${rss(local.down, idle)} |`,
    ];
    if (s3) {
      rows.push(
        `| Upload ${S3_SIZE_MB} MiB to s3rver: \`curl -T\` → Cubby → ` +
          `${S3_SIZE_MB > 64 ? "8 MiB multipart" : "one streamed \`PutObject\`"} | ` +
          `${f0(s3.up.best)} MiB/s | SDK direct, 8 MiB multipart | ` +
          `${f0(s3.directMultipart.best)} MiB/s | ${ratio(s3.up, s3.directMultipart)} | ` +
          `${rss(s3.up, idle)} |`,
        `| ″ | ″ | SDK direct, one \`PutObject\` | ${f0(s3.directPut.best)} MiB/s | ` +
          `${ratio(s3.up, s3.directPut)} | |`,
        `| Download ${S3_SIZE_MB} MiB from s3rver: Cubby proxy → \`curl -o /dev/null\` | ` +
          `${f0(s3.down.best)} MiB/s | SDK direct \`GetObject\` | ${f0(s3.directGet.best)} ` +
          `MiB/s | ${ratio(s3.down, s3.directGet)} | ${rss(s3.down, idle)} |`,
      );
    }
    const section = [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${navigator.hardwareConcurrency} ` +
      `cores (${await cpuModel()}), Deno ${Deno.version.deno}, ${Deno.build.os}. Best of ` +
      `${RUNS} runs (other work on the machine only slows a run down); peak RSS is the highest ` +
      `of the runs, with its rise over the ${f0(idle / MiB)} MiB the server used at rest after ` +
      `start-up. 1-minute load average ${load.toFixed(1)} at the start.`,
      "",
      rows.join("\n"),
    ].join("\n");
    console.log(`\n${section}`);
    if (!opts["no-write"]) {
      await writeReadme(section);
      console.log(`\nwrote ${README}`);
    }
  } catch (err) {
    console.error(`\n${err instanceof Error ? err.stack : err}`);
    console.error(`server output:\n${server.output().slice(-2000)}`);
    Deno.exitCode = 1;
  } finally {
    await server.stop();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
