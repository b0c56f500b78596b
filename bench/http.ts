/**
 * HTTP throughput of the real server (main.ts on 127.0.0.1, a temporary data dir) with wrk,
 * where every figure is a ratio to a ceiling measured in the same run, on the same machine:
 *
 * - bare `Deno.serve` hello-world (bench/hello.ts) for every row, and for the API floor;
 * - React `renderToString` of a page as large as the share page (bench/react_page.ts) for the
 *   share page;
 * - the share page's KV read alone in a bare Deno.serve (bench/kv_reads.ts), which shows
 *   how much of the share page's time its reads take;
 * - the KV commit rate of a bare loop on the same disk (bench/kv_commits.ts) for the rows that
 *   commit (create, and views, which count);
 *
 * Every server runs pinned to core 0 (`taskset -c 0`) and wrk to core 1, so the load generator
 * never steals the server's CPU. Each case runs --runs times and keeps the best run: other work
 * on a shared machine only ever slows a run down. The server's RSS is read at rest (after start,
 * before any request) and at its peak (VmHWM) at the end. Writes the table into bench/README.md.
 *
 *   deno task bench [--duration=5] [--warmup=1] [--runs=3] [--connections=32] [--no-write]
 *                   [--cases=floor,floor1,create,json,raw,share]
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { TEST_ADMIN } from "../tests/helpers/server.ts";
import { type Case, type Result, runWrk as runWrkOn } from "./wrk.ts";
import { CASE_KEYS, pageShape, prepareCases, probe } from "./http_cases.ts";
import { cpuModel, fmt, formatTable, type Measured, type Row, writeReadme } from "./http_report.ts";
import { cpuTimeMs, memoryOf, type Pinned, startPinned as startPinnedOn } from "./processes.ts";

const { values: opts } = parseArgs({
  args: Deno.args,
  options: {
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    runs: { type: "string", default: "3" },
    connections: { type: "string", default: "32" },
    cases: { type: "string", default: CASE_KEYS.join(",") },
    "no-write": { type: "boolean", default: false },
  },
});
const DURATION_S = Number(opts.duration);
const WARMUP_S = Number(opts.warmup);
const RUNS = Math.max(1, Number(opts.runs));
const CONNECTIONS = Number(opts.connections);
const SERVER_CORE = "0";
const LOAD_CORE = "1";
const README = join(import.meta.dirname!, "README.md");
const ROOT = join(import.meta.dirname!, "..");
/** Runs wrk on LOAD_CORE with CONNECTIONS unless the case says otherwise. */
const runWrk = (c: Case, seconds: number) =>
  runWrkOn(c, seconds, { core: LOAD_CORE, connections: CONNECTIONS });
/** Starts a benchmark server pinned to SERVER_CORE. */
const startPinned = (script: string, env: Record<string, string> = {}) =>
  startPinnedOn(script, SERVER_CORE, ROOT, env);
/** The cases to run (`--cases=floor,share`); a partial run never writes the README. */
const ONLY = new Set(opts.cases.split(",").map((k) => k.trim()));
for (const key of ONLY) {
  if (!(CASE_KEYS as readonly string[]).includes(key)) {
    throw new Error(`unknown case "${key}"; cases: ${CASE_KEYS.join(", ")}`);
  }
}
const PARTIAL = ONLY.size < CASE_KEYS.length;

/** The bare KV commit rate on the same disk, best of RUNS, pinned like a server. */
async function kvCommitCeiling(dir: string): Promise<number> {
  let best = 0;
  for (let run = 0; run < RUNS; run++) {
    const out = await new Deno.Command("taskset", {
      args: ["-c", SERVER_CORE, Deno.execPath(), "run", "-A", "bench/kv_commits.ts"],
      cwd: ROOT,
      env: { DIR: dir, SECONDS: String(DURATION_S), CONCURRENCY: String(CONNECTIONS) },
      stderr: "inherit",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const rate = Number(text.match(/commits\/s: ([\d.]+)/)?.[1]);
    if (!out.success || !Number.isFinite(rate)) throw new Error(`kv_commits failed:\n${text}`);
    best = Math.max(best, rate);
  }
  return best;
}

/**
 * Warm-up, then the best of RUNS runs (highest requests/s). `cpuUs` is the server's CPU time
 * (all its threads) per request, the lowest of the runs: on a shared machine it moves less than
 * throughput, since waiting for the core costs no CPU time.
 */
async function measureBest(c: Case, pid: number): Promise<Measured> {
  await probe(c);
  if (WARMUP_S > 0) await runWrk(c, WARMUP_S);
  let best: Result | null = null;
  let cpuUs = Infinity;
  for (let run = 0; run < RUNS; run++) {
    const before = await cpuTimeMs(pid);
    const r = await runWrk(c, DURATION_S);
    cpuUs = Math.min(cpuUs, ((await cpuTimeMs(pid)) - before) * 1000 / Math.max(1, r.requests));
    if (!best || r.rps > best.rps) best = r;
  }
  console.log(
    `${c.name.replaceAll("`", "")}: ${Math.round(best!.rps)} req/s, p50 ` +
      `${best!.p50Ms.toFixed(2)} ms, p99 ${best!.p99Ms.toFixed(2)} ms (${best!.non2xx} non-2xx, ` +
      `${best!.errors} errors), ${cpuUs.toFixed(1)} µs CPU per request`,
  );
  return { ...best!, cpuUs };
}

if (import.meta.main) {
  console.log(`wrk, ${CONNECTIONS} connections, ${DURATION_S} s per run, best of ${RUNS}`);
  const load = Deno.loadavg()[0];
  const dataDir = await Deno.makeTempDir({ prefix: "cubby-bench-" });
  const procs: Pinned[] = [];
  try {
    const server = await startPinned("main.ts", {
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      SWEEP_INTERVAL_MS: "0",
    });
    procs.push(server);
    await new Promise((r) => setTimeout(r, 2000));
    const atRest = await memoryOf(server.pid);
    const all = await prepareCases(server.url);
    const cases = all.filter((c) => ONLY.has(c.key));
    const share = all.find((c) => c.ceiling === "react")!;
    const shape = pageShape(await probe(share));
    const hello = await startPinned("bench/hello.ts");
    procs.push(hello);
    const react = await startPinned("bench/react_page.ts", {
      ELEMENTS: String(shape.elements),
      BYTES: String(shape.bytes),
    });
    procs.push(react);
    const kvReads = await startPinned("bench/kv_reads.ts", { DIR: dataDir });
    procs.push(kvReads);

    const helloCase = (connections?: number): Case => ({
      name: "",
      method: "GET",
      url: hello.url,
      expectStatus: 200,
      connections,
    });
    const deno = await measureBest({ ...helloCase(), name: "Ceiling: bare Deno.serve" }, hello.pid);
    const deno1 = await measureBest(
      { ...helloCase(1), name: "Ceiling: bare Deno.serve, 1 conn" },
      hello.pid,
    );
    const reactPage = await measureBest({
      name: "Ceiling: React renderToString page",
      method: "GET",
      url: react.url,
      expectStatus: 200,
    }, react.pid);
    const reads = await measureBest({
      name: "Ceiling: the share page's KV reads",
      method: "GET",
      url: kvReads.url,
      expectStatus: 200,
    }, kvReads.pid);
    const commitRates: number[] = [];

    const rows: Row[] = [
      { name: "Ceiling: bare `Deno.serve` hello-world", r: deno, vsDeno: 1, cpuVs: 1 },
      { name: "Ceiling: bare `Deno.serve`, 1 connection", r: deno1, vsDeno: 1, cpuVs: 1 },
      {
        name: `Ceiling: React \`renderToString\` page (${shape.elements} elements, ` +
          `${fmt(shape.bytes / 1024, 1)} KiB)`,
        r: reactPage,
        vsDeno: reactPage.rps / deno.rps,
        cpuVs: deno.cpuUs / reactPage.cpuUs,
      },
      {
        name: "Ceiling: the share page's KV read alone (`bench/kv_reads.ts`)",
        r: reads,
        vsDeno: reads.rps / deno.rps,
        cpuVs: deno.cpuUs / reads.cpuUs,
      },
    ];
    for (const c of cases) {
      // The disk is shared too: the KV ceiling is measured right before each row that commits.
      const commits = c.ceiling === "kv" ? await kvCommitCeiling(dataDir) : 0;
      if (commits) {
        commitRates.push(commits);
        console.log(`Ceiling: bare KV commit loop: ${fmt(commits, 1)} commits/s`);
      }
      const r = await measureBest(c, server.pid);
      const base = c.connections === 1 ? deno1 : deno;
      const own = c.ceiling === "react"
        ? { label: "React page", value: r.rps / reactPage.rps }
        : c.ceiling === "kv"
        ? { label: `KV commits (${fmt(commits)}/s)`, value: r.rps / commits }
        : c.connections === 1
        ? { label: "p50 / bare p50", value: r.p50Ms / deno1.p50Ms }
        : undefined;
      // CPU per request against the share page's ceiling, or else bare Deno.serve's.
      const cpuBase = c.ceiling === "react" ? reactPage : base;
      rows.push({ name: c.name, r, vsDeno: r.rps / base.rps, own, cpuVs: cpuBase.cpuUs / r.cpuUs });
    }
    const peak = await memoryOf(server.pid);

    const table = formatTable(rows);
    const section = [
      `Measured ${new Date().toISOString().slice(0, 10)} with wrk (1 thread, ${CONNECTIONS} ` +
      `connections unless noted, ${WARMUP_S} s warm-up, best of ${RUNS} runs of ` +
      `${DURATION_S} s) on ${navigator.hardwareConcurrency} cores (${await cpuModel()}), Deno ` +
      `${Deno.version.deno}, ${Deno.build.os}. Every server pinned to core ${SERVER_CORE}, wrk ` +
      `to core ${LOAD_CORE}. 1-minute load average ${load.toFixed(1)} at the start` +
      (load > 0.5
        ? ": the machine was shared with other work, which lowers every row, ceilings included; " +
          "read the ratios, not the absolute numbers."
        : "."),
      "",
      `Bare KV commit loop on the same disk (${CONNECTIONS} commits in flight, a record and an ` +
      `index per commit), measured right before each row that commits: ` +
      (commitRates.length
        ? `${fmt(Math.min(...commitRates))}–${fmt(Math.max(...commitRates))} commits/s.`
        : "not measured (no row that commits in this run)."),
      "",
      table,
      "",
      `Server RSS: ${fmt(atRest.rss, 1)} MiB at rest (after start, before any request), ` +
      `${fmt(peak.peak, 1)} MiB at peak (VmHWM after every case).`,
    ].join("\n");
    console.log(`\n${section}`);
    if (!opts["no-write"] && !PARTIAL) {
      await writeReadme(README, section);
      console.log(`\nwrote ${README}`);
    }
  } catch (err) {
    console.error(`\n${err instanceof Error ? err.stack : err}`);
    for (const p of procs) console.error(`output:\n${p.output().slice(-2000)}`);
    Deno.exitCode = 1;
  } finally {
    for (const p of procs) await p.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}
