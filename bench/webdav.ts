/**
 * WebDAV benchmarks, two parts (`--cases=big,many`, both by default):
 *
 * - big: throughput against direct driver access: a 256 MiB file PUT and GET through `/dav` on
 *   the real server (as `deno task start` runs it, on 127.0.0.1, a local mount on a temporary data dir) with
 *   `curl` as the client, and the same file put to and read from a LocalDriver on the same disk in
 *   this process. Deno's own fetch uploads a stream body at a small fraction of the server's speed,
 *   so it would measure the client, not Cubby. Reports the median of several runs in MiB/s and
 *   the WebDAV/direct ratio, written between the `bench:webdav` markers of bench/README.md.
 * - many: 4 KiB PUTs, 16 at once, into one folder as it grows, and PROPFIND Depth 1 of it, as
 *   ratios to `rclone serve webdav` in the same run (bench/webdav_many.ts), written between the
 *   `bench:webdav-many` markers.
 *
 *   deno run -A bench/webdav.ts [--cases=big,many] [--size-mib=256] [--runs=3]
 *                               [--files=1000] [--batches=4] [--propfinds=5] [--no-write]
 */
import { join } from "node:path";
import { loginAdmin, startServer, TEST_ADMIN } from "../tests/helpers/server.ts";
import { LocalDriver } from "../server/storage/local.ts";
import { writeReadmeSection } from "./readme_section.ts";
import { manyTable, measureMany, mountBench } from "./webdav_many.ts";
import { benchArgs } from "./args.ts";
import { serveFromBundle } from "./server_entry.ts";

const opts = benchArgs({
  numbers: { "size-mib": 256, runs: 3, files: 1000, batches: 4, propfinds: 5 },
  strings: { cases: "big,many" },
  flags: ["no-write"],
});
const SIZE_MIB = opts["size-mib"];
const RUNS = opts.runs;
const CASES = new Set(opts.cases.split(",").map((c) => c.trim()));
const ROOT = join(import.meta.dirname!, "..");
const loadAverage = async () =>
  (await Deno.readTextFile("/proc/loadavg").catch(() => "? ")).split(" ")[0];

/** Writes SIZE_MIB MiB of random bytes to `path`, one MiB at a time. */
async function writeSource(path: string): Promise<void> {
  const chunk = new Uint8Array(1024 * 1024);
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  for (let n = 0; n < SIZE_MIB; n++) {
    for (let i = 0; i < chunk.length; i += 65536) {
      crypto.getRandomValues(chunk.subarray(i, i + 65536));
    }
    await file.write(chunk);
  }
  file.close();
}

/** Runs curl and checks the HTTP status it reports. */
async function curl(args: string[], okStatus: string[]): Promise<void> {
  const out = await new Deno.Command("curl", {
    args: ["-sS", "-o", "/dev/null", "-w", "%{http_code}", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const status = new TextDecoder().decode(out.stdout);
  if (!okStatus.includes(status)) {
    throw new Error(`curl ${args.join(" ")}: ${status} ${new TextDecoder().decode(out.stderr)}`);
  }
}

async function drain(body: ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const chunk of body) n += chunk.length;
  return n;
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function runBig(): Promise<void> {
  await serveFromBundle();
  const server = await startServer();
  const work = await Deno.makeTempDir({ prefix: "cubby-bench-webdav-" });
  try {
    const token = await loginAdmin(server);
    const bearer = { authorization: `Bearer ${token}` };
    const json = { ...bearer, "content-type": "application/json" };
    // The max upload size (100 MB by default) covers WebDAV PUTs too.
    const raised = await fetch(`${server.url}/api/admin/settings/group/1`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ max_upload_size: 1, max_upload_size_unit: "GB" }),
    });
    if (!raised.ok) throw new Error(`raising max_upload_size answered ${raised.status}`);
    await raised.body?.cancel();
    await mountBench(server.url, token);
    const setMode = async (mode: string) => {
      const res = await fetch(`${server.url}/api/admin/settings/group/3`, {
        method: "PUT",
        headers: json,
        body: JSON.stringify({ webdav_upload_mode: mode }),
      });
      if (!res.ok) throw new Error(`settings: ${await res.text()}`);
    };

    const source = join(work, "source.bin");
    await writeSource(source);
    const bytes = SIZE_MIB * 1024 * 1024;
    const user = `${TEST_ADMIN.username}:${TEST_ADMIN.password}`;
    const url = `${server.url}/dav/bench/big.bin`;
    const driver = new LocalDriver({
      root: join(work, "direct"),
      signingSecret: "bench",
      configId: "bench",
      urlPrefix: "/x",
    });

    // Warm up: the first Basic login runs the password KDF once (later ones are remembered).
    await curl(["-u", user, "-X", "OPTIONS", `${server.url}/dav/`], ["200"]);
    const davPut = () => curl(["-u", user, "-T", source, url], ["201", "204"]);
    const davGet = () => curl(["-u", user, url], ["200"]);
    const directPut = async () => {
      const file = await Deno.open(source);
      await driver.put("big.bin", file.readable, { size: bytes });
    };
    const directGet = async () => {
      if ((await drain((await driver.get("big.bin")).body)) !== bytes) throw new Error("short get");
    };

    const rows: [string, () => Promise<void>, () => Promise<void>, string?][] = [
      ["PUT (upload mode direct)", davPut, directPut, "direct"],
      ["PUT (upload mode multipart)", davPut, directPut, "multipart"],
      ["GET", davGet, directGet],
    ];
    const results: { name: string; dav: number; direct: number }[] = [];
    for (const [name, viaDav, viaDriver, mode] of rows) {
      if (mode) await setMode(mode);
      const davTimes: number[] = [];
      const directTimes: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        davTimes.push(await timed(viaDav));
        directTimes.push(await timed(viaDriver));
      }
      const dav = SIZE_MIB / median(davTimes);
      const direct = SIZE_MIB / median(directTimes);
      results.push({ name, dav, direct });
      console.log(`${name}: WebDAV ${dav.toFixed(0)} MiB/s, direct ${direct.toFixed(0)} MiB/s`);
    }

    const load = await loadAverage();
    const fmt = (n: number) => n.toFixed(0);
    const table = [
      `Measured ${new Date().toISOString().slice(0, 10)}: one ${SIZE_MIB} MiB file, median of ` +
      `${RUNS} runs, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}, ` +
      `1-minute load average ${load} at the end. WebDAV is \`curl -T\` (PUT, with a ` +
      `Content-Length) and \`curl\` (GET) against the real server over loopback; direct is a ` +
      `LocalDriver in the bench process reading the same source file and writing to the same ` +
      `disk (fsync on, as in the server).`,
      "",
      "| Case | WebDAV MiB/s | Direct driver MiB/s | WebDAV / direct |",
      "| ---- | -----------: | ------------------: | --------------: |",
      ...results.map((r) =>
        `| ${r.name} | ${fmt(r.dav)} | ${fmt(r.direct)} | ${(r.dav / r.direct).toFixed(2)} |`
      ),
    ].join("\n");
    console.log("\n" + table);
    if (!opts["no-write"]) await writeReadmeSection("webdav", table);
  } finally {
    await server.stop();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

async function runMany(): Promise<void> {
  const many = {
    files: opts.files,
    batches: opts.batches,
    propfinds: opts.propfinds,
  };
  const loadBefore = await loadAverage();
  const results = await measureMany(ROOT, many);
  const table = [
    `Measured ${
      new Date().toISOString().slice(0, 10)
    }: one run, ${navigator.hardwareConcurrency} ` +
    `cores, Deno ${Deno.version.deno}, rclone ${await rcloneVersion()}; 1-minute load average ` +
    `${loadBefore} at the start and ${await loadAverage()} at the end. Servers on core 0, ` +
    `\`curl\` on core 1.`,
    "",
    manyTable(results, many),
  ].join("\n");
  console.log("\n" + table);
  if (!opts["no-write"]) await writeReadmeSection("webdav-many", table);
}

async function rcloneVersion(): Promise<string> {
  const out = await new Deno.Command("rclone", { args: ["version"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n")[0].replace(/^rclone /, "");
}

if (CASES.has("big")) await runBig();
if (CASES.has("many")) await runMany();
