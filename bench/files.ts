/**
 * File transfer throughput of the real server (as `deno task start` runs it, a temporary data dir),
 * each against a baseline measured in the same run on the same disk: local uploads vs `cp`, local
 * downloads vs `cat`, and S3 through Cubby vs `@aws-sdk/client-s3` straight against s3rver. Samples
 * the server's peak RSS. Writes the tables into bench/README.md between the bench:files markers.
 *
 *   deno run -A bench/files.ts [--size-mb=1024] [--s3-size-mb=256] [--runs=3] [--no-s3]
 *                              [--no-write] [--no-pin]
 *
 * Unless --no-pin, the server (all its threads) is pinned to core 0 and curl, cp, sync and cat
 * to core 1 with `taskset`, so the client never competes with the server for a core.
 */
import { join } from "node:path";
import {
  adminAuth,
  type FilesServer,
  MiB,
  readRss,
  run,
  startFilesServer,
  writePseudoRandomFile,
} from "../tests/shell/helpers.ts";
import { Client, Series, timed } from "./file_transfers.ts";
import { s3Runs } from "./files_s3.ts";
import { benchArgs } from "./args.ts";
import { serveFromBundle } from "./server_entry.ts";

const opts = benchArgs({
  numbers: { "size-mb": 1024, "s3-size-mb": 256, runs: 3 },
  flags: ["no-s3", "no-write", "no-pin"],
});
const SIZE_MB = opts["size-mb"];
const S3_SIZE_MB = opts["s3-size-mb"];
const RUNS = opts.runs;
const PIN = !opts["no-pin"];
const README = join(import.meta.dirname!, "README.md");
const START_MARK = "<!-- bench:files:start -->";
const END_MARK = "<!-- bench:files:end -->";

async function localRuns(server: FilesServer, client: Client, src: string, sha256: string) {
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
    const cp = await timed(() => client.run("cp", [src, dst]));
    const sync = await timed(() => client.run("sync", ["--data", dst]));
    r.cp.add(SIZE_MB, cp.seconds);
    r.cpSync.add(SIZE_MB, cp.seconds + sync.seconds);
    await Deno.remove(dst);
    const up = await timed(() => client.upload(src), server.pid);
    r.up.add(SIZE_MB, up.seconds, up.rss);
    if (last) await client.deleteShare(last.id);
    last = up.value;
    console.log(
      `local run ${i + 1}: upload ${(SIZE_MB / up.seconds).toFixed(0)} MiB/s (peak RSS ` +
        `${((up.rss?.peak ?? 0) / MiB).toFixed(0)} MiB), cp ${(SIZE_MB / cp.seconds).toFixed(0)} ` +
        `(+fdatasync ${(SIZE_MB / (cp.seconds + sync.seconds)).toFixed(0)})`,
    );
  }
  await client.verify(last!.slug, sha256);
  for (let i = 0; i < RUNS; i++) {
    const down = await timed(() => client.download(last!.slug), server.pid);
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
  await client.deleteShare(last!.id);
  return r;
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
  await serveFromBundle();
  const server = await startFilesServer(Math.ceil(SIZE_MB / 1024) + 1);
  try {
    if (PIN) await run("taskset", ["-a", "-c", "-p", "0", String(server.pid)]);
    const [a, b] = [await Deno.stat(tmp), await Deno.stat(server.dataDir)];
    if (a.dev !== b.dev) console.warn("warning: the source and DATA_DIR are on different disks");
    const src = join(tmp, "source.bin");
    console.log(`writing ${SIZE_MB} MiB of pseudo-random bytes to ${src}`);
    const sha256 = await writePseudoRandomFile(src, SIZE_MB * MiB, 1);
    const client = new Client(server, await adminAuth(server), PIN);
    const idle = (await readRss(server.pid)).rss;
    const local = await localRuns(server, client, src, sha256);
    let s3 = null;
    if (!opts["no-s3"]) {
      await Deno.remove(src);
      const s3src = join(tmp, "s3-source.bin");
      const s3sha = await writePseudoRandomFile(s3src, S3_SIZE_MB * MiB, 2);
      s3 = await s3Runs(server, client, s3src, s3sha, { runs: RUNS, sizeMb: S3_SIZE_MB });
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
