/**
 * The server's memory, run as `deno task start` runs it (the bundle in dist-server/, built first
 * when a source is newer) and, for comparison, from its sources (`deno run -A main.ts`): RSS at rest, after first use of every page kind (tests/helpers/first_use.ts),
 * and at its peak during a large `curl -T` upload to `PUT /api/upload-direct`; then a used bundle:
 * its peak under `wrk` load on every hot path (bench/http_cases.ts) and its RSS as it idles after
 * the load; then, on a server started with `--inspect`, the V8 heap after first use and a heap
 * snapshot's top retainers (bench/heap_summary.ts). Writes the results into bench/README.md
 * (bench:memory).
 *
 *   deno task bench:memory [--size-mb=200] [--runs=3] [--no-write]
 */
import { join } from "node:path";
import { startServer } from "../tests/helpers/server.ts";
import { settledRss, useEveryPageKind } from "../tests/helpers/first_use.ts";
import {
  adminAuth,
  findServerPid,
  MiB,
  run,
  sampleRss,
  startFilesServer,
  writePseudoRandomFile,
} from "../tests/shell/helpers.ts";
import { freePort, Inspector } from "./inspector.ts";
import { type SizeRow, summariseHeap } from "./heap_summary.ts";
import { writeReadmeSection } from "./readme_section.ts";
import { benchArgs } from "./args.ts";
import { serverCommand } from "./server_entry.ts";
import { prepareCases, probe } from "./http_cases.ts";
import { runWrk } from "./wrk.ts";
import { memoryOf } from "./processes.ts";

const opts = benchArgs({ numbers: { "size-mb": 200, runs: 3 }, flags: ["no-write"] });
const SIZE_MB = opts["size-mb"];
const RUNS = opts.runs;
const mib = (b: number) => (b / MiB).toFixed(1);

type Run = { atRest: number; firstUse: number; uploadPeak: number; afterUpload: number };

/** One server running `entry`: at rest, after first use, during and after an upload of `file`. */
async function measureRun(entry: string, file: string): Promise<Run> {
  const server = await startFilesServer(1, {}, { entry });
  try {
    const atRest = await settledRss(server.pid);
    const auth = await adminAuth(server);
    await useEveryPageKind(server, auth);
    const firstUse = await settledRss(server.pid);
    const mem = await sampleRss(server.pid);
    const out = await run("curl", [
      "-sS",
      "--fail-with-body",
      "-T",
      file,
      "-H",
      `Authorization: ${auth}`,
      `${server.url}/api/upload-direct/big.bin`,
    ]);
    const rss = await mem.stop();
    if (JSON.parse(out).code !== 201) throw new Error(`upload failed: ${out}`);
    const afterUpload = await settledRss(server.pid);
    return { atRest, firstUse, uploadPeak: rss.peak, afterUpload };
  } finally {
    await server.stop();
  }
}

/** The hot paths a used server has served, each for LOAD_S seconds, and when RSS is read after. */
const LOAD_CASES = ["create", "json", "raw", "share"];
const LOAD_S = 5;
const IDLE_READINGS_S = [15, 30, 45, 60];

type Used = { loadPeak: number; requests: number; idle: { s: number; rss: number }[] };

/**
 * A used server running `entry`: every hot path under `wrk` (32 connections, LOAD_S seconds
 * each), its peak RSS (`VmHWM`), then its RSS at IDLE_READINGS_S seconds of idling after the load.
 * V8 gives its grown heap back only when its memory reducer runs, some 30 s after the load ends.
 */
async function measureUsed(entry: string): Promise<Used> {
  const server = await startFilesServer(1, {}, { entry });
  try {
    const cases = (await prepareCases(server.url)).filter((c) => LOAD_CASES.includes(c.key));
    if (cases.length !== LOAD_CASES.length) throw new Error(`not every case of ${LOAD_CASES}`);
    let requests = 0;
    for (const c of cases) {
      await probe(c);
      requests += (await runWrk(c, LOAD_S, { core: "1", connections: 32 })).requests;
    }
    const loadPeak = (await memoryOf(server.pid)).peak * MiB;
    const idle: Used["idle"] = [];
    const loadEnd = performance.now();
    for (const s of IDLE_READINGS_S) {
      await new Promise((r) => setTimeout(r, loadEnd + s * 1000 - performance.now()));
      idle.push({ s, rss: (await memoryOf(server.pid)).rss * MiB });
    }
    return { loadPeak, requests, idle };
  } finally {
    await server.stop();
  }
}

type Heap = {
  usage: Record<string, number>;
  spaces: { name: string; size: number; used: number }[];
  rss: number;
  summary: ReturnType<typeof summariseHeap>;
};

/**
 * A server running `entry` under the inspector, after first use: its V8 heap and a heap
 * snapshot's summary.
 */
async function measureHeap(entry: string): Promise<Heap> {
  const port = freePort();
  const server = await startServer({}, { entry, denoFlags: [`--inspect=127.0.0.1:${port}`] });
  const inspector = await Inspector.connect(port);
  try {
    const pid = await findServerPid(server.dataDir);
    await useEveryPageKind(server, await adminAuth(server));
    await inspector.collectGarbage();
    const rss = await settledRss(pid);
    const usage = await inspector.evaluate<Record<string, number>>("Deno.memoryUsage()");
    const spaces = await inspector.evaluate<Heap["spaces"]>(
      `import("node:v8").then((v8) => v8.getHeapSpaceStatistics().map((s) => ({
        name: s.space_name, size: s.space_size, used: s.space_used_size })))`,
    );
    const summary = summariseHeap(await inspector.heapSnapshot());
    return { usage, spaces, rss, summary };
  } finally {
    inspector.close();
    await server.stop();
  }
}

const rowsTable = (rows: SizeRow[], what: string) =>
  [`| ${what} | MiB |`, "| --- | ---: |", ...rows.map((r) => `| ${r.name} | ${mib(r.bytes)} |`)]
    .join("\n");

function report(runs: Run[], source: Run[], used: Used, heap: Heap): string {
  const range = (f: (r: Run) => number, of = runs) => {
    const best = Math.min(...of.map(f));
    const worst = Math.max(...of.map(f));
    return best === worst ? `${mib(best)}` : `${mib(best)}–${mib(worst)}`;
  };
  const both = (f: (r: Run) => number) => `${range(f)} | ${range(f, source)}`;
  const spaces = heap.spaces.filter((s) => s.size >= 0.05 * MiB)
    .map((s) => `${s.name} ${mib(s.size)} (${mib(s.used)} used)`).join(", ");
  const load = Deno.loadavg()[0].toFixed(1);
  return [
    `Measured ${
      new Date().toISOString().slice(0, 10)
    } with Deno ${Deno.version.deno}, ${runs.length} ` +
    `servers of each kind one after the other, on a temporary data directory: the bundle that ` +
    `\`deno task start\` runs (\`dist-server/main_bundle.js\`) and, for comparison, the ` +
    `sources (\`deno run -A main.ts\`). 1-minute load average ${load} at the end. RSS is ` +
    `\`VmRSS\` once ten readings 100 ms apart lie within 0.5 MiB; the upload's peak is ` +
    `\`VmHWM\`, reset before the upload.`,
    "",
    "| Phase | RSS, bundle (MiB, lowest–highest of the runs) | RSS, sources (MiB) |",
    "| --- | ---: | ---: |",
    `| At rest, after start | ${both((r) => r.atRest)} |`,
    `| After first use of every page kind | ${both((r) => r.firstUse)} |`,
    `| Peak during a ${SIZE_MB} MiB \`curl -T\` upload | ${both((r) => r.uploadPeak)} |`,
    `| Peak minus first use, per run | ${
      [runs, source].map((of) => of.map((r) => `+${mib(r.uploadPeak - r.firstUse)}`).join(", "))
        .join(" | ")
    } |`,
    `| After the upload | ${both((r) => r.afterUpload)} |`,
    "",
    `A used bundle: ${LOAD_CASES.join(", ")} under \`wrk\` (32 connections, ${LOAD_S} s each, ` +
    `${used.requests.toLocaleString("en")} requests in all, the server unpinned, \`wrk\` on core ` +
    `1), then idle. RSS is \`VmRSS\`, read once at each time.`,
    "",
    "| Used bundle | RSS (MiB) |",
    "| --- | ---: |",
    `| Peak during the load (\`VmHWM\`) | ${mib(used.loadPeak)} |`,
    ...used.idle.map((r) => `| ${r.s} s after the load | ${mib(r.rss)} |`),
    "",
    `The bundle under the inspector (\`--inspect\`, which holds more), after first use and a full garbage ` +
    `collection: RSS ${mib(heap.rss)} MiB, of which the V8 heap ${mib(heap.usage.heapTotal)} ` +
    `MiB (${mib(heap.usage.heapUsed)} used; ${spaces}) and external memory ` +
    `${mib(heap.usage.external)} MiB. The heap snapshot holds ` +
    `${mib(heap.summary.totalBytes)} MiB of objects:`,
    "",
    rowsTable(heap.summary.byKind.slice(0, 8), "Kind of object (self size)"),
    "",
    rowsTable(
      heap.summary.byScript.slice(0, 10),
      "Scripts: source, line ends, source map (retained)",
    ),
  ].join("\n");
}

const dir = await Deno.makeTempDir({ prefix: "cubby-bench-memory-" });
try {
  const file = join(dir, "big.bin");
  await writePseudoRandomFile(file, SIZE_MB * MiB);
  const measure = async (kind: string) => {
    const { script } = await serverCommand(kind);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await measureRun(script, file);
      console.log(
        `${kind} run ${i + 1}: at rest ${mib(r.atRest)} MiB, first use ${mib(r.firstUse)}, ` +
          `upload peak ${mib(r.uploadPeak)} (+${mib(r.uploadPeak - r.firstUse)}), after ` +
          mib(r.afterUpload),
      );
      runs.push(r);
    }
    return runs;
  };
  const runs = await measure("bundle");
  const source = await measure("source");
  const bundle = (await serverCommand("bundle")).script;
  const used = await measureUsed(bundle);
  console.log(
    `used bundle: peak ${mib(used.loadPeak)} MiB under load; after it ` +
      used.idle.map((r) => `${r.s} s ${mib(r.rss)}`).join(", "),
  );
  const heap = await measureHeap(bundle);
  const text = report(runs, source, used, heap);
  console.log(text);
  console.log("\nLargest single retainers in the heap snapshot (retained MiB):");
  for (const r of heap.summary.topRetainers) console.log(`  ${mib(r.bytes)} ${r.name}`);
  if (!opts["no-write"]) await writeReadmeSection("memory", text);
} finally {
  await Deno.remove(dir, { recursive: true });
}
