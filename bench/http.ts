/**
 * HTTP throughput of the real server (on 127.0.0.1, a temporary data dir) with wrk,
 * where every row is a ratio to a ceiling measured in the same run, on the same machine:
 *
 * - bare `Deno.serve` hello-world (bench/hello.ts) for the API floor, at 32 connections and at 1;
 * - React `renderToString` of a page as large as the share page (bench/react_page.ts) for the
 *   share page;
 * - one `kv.get` per request in a bare Deno.serve (bench/kv_serve.ts `get`, the same 2 kB
 *   record, on the same disk) for the raw and JSON views;
 * - one `kv.atomic().check().set().set().commit()` per request in a bare Deno.serve
 *   (bench/kv_serve.ts `commit`, on the same disk) for creates, measured right before them since
 *   the disk is shared too;
 * - and, for information, the share page's own read (a `getMany` of the record and its counter)
 *   in a bare Deno.serve (bench/kv_serve.ts `page-read`).
 *
 * Every server runs pinned to core 0 (`taskset -c 0`) and wrk to core 1, so the load generator
 * never steals the server's CPU. Each case runs --runs times and keeps the best run: other work
 * on a shared machine only ever slows a run down. The server's RSS is read at rest (after start,
 * before any request) and at its peak (VmHWM) at the end. Writes the table into bench/README.md.
 *
 *   deno task bench [--duration=5] [--warmup=1] [--runs=3] [--connections=32] [--no-write]
 *                   [--cases=floor,floor1,create,json,raw,share] [--server=bundle|source]
 *                   [--v8-flags=…]
 *
 * Cubby runs as `deno task start` runs it, the bundle in dist-server/ (bench/server_entry.ts),
 * unless --server=source.
 */
import { join } from "node:path";
import { TEST_ADMIN } from "../tests/helpers/server.ts";
import { type Case, type Result, runWrk as runWrkOn } from "./wrk.ts";
import { CASE_KEYS, pageShape, PASTE_TEXT, prepareCases, probe } from "./http_cases.ts";
import { cpuModel, fmt, formatTable, type Measured, type Row, writeReadme } from "./http_report.ts";
import { cpuTimeMs, memoryOf, type Pinned, startPinned as startPinnedOn } from "./processes.ts";
import { benchArgs } from "./args.ts";
import { serverCommand } from "./server_entry.ts";

const opts = benchArgs({
  numbers: { duration: 5, warmup: 1, runs: 3, connections: 32 },
  strings: { cases: CASE_KEYS.join(","), server: "bundle", "v8-flags": "" },
  flags: ["no-write"],
});
const DURATION_S = opts.duration;
const WARMUP_S = opts.warmup;
const RUNS = Math.max(1, opts.runs);
const CONNECTIONS = opts.connections;
const SERVER_CORE = "0";
const LOAD_CORE = "1";
const README = join(import.meta.dirname!, "README.md");
const ROOT = join(import.meta.dirname!, "..");
/** Runs wrk on LOAD_CORE with CONNECTIONS unless the case says otherwise. */
const runWrk = (c: Case, seconds: number) =>
  runWrkOn(c, seconds, { core: LOAD_CORE, connections: CONNECTIONS });
/** Starts a benchmark server pinned to SERVER_CORE. */
const startPinned = (script: string, env: Record<string, string> = {}, flags: string[] = []) =>
  startPinnedOn(script, SERVER_CORE, ROOT, env, flags);
/** The cases to run (`--cases=floor,share`); a partial run never writes the README. */
const ONLY = new Set(opts.cases.split(",").map((k) => k.trim()));
for (const key of ONLY) {
  if (!(CASE_KEYS as readonly string[]).includes(key)) {
    throw new Error(`unknown case "${key}"; cases: ${CASE_KEYS.join(", ")}`);
  }
}
const PARTIAL = ONLY.size < CASE_KEYS.length;

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
  /** Starts a ceiling's server, kept for the whole run. */
  const ceilingServer = async (script: string, env: Record<string, string> = {}) => {
    const p = await startPinned(script, env);
    procs.push(p);
    return p;
  };
  const getCase = (name: string, url: string, connections?: number): Case => ({
    name,
    method: "GET",
    url,
    expectStatus: 200,
    connections,
  });
  try {
    const cubby = await serverCommand(opts.server, opts["v8-flags"]);
    const server = await startPinned(cubby.script, {
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      SWEEP_INTERVAL_MS: "0",
    }, cubby.flags);
    procs.push(server);
    await new Promise((r) => setTimeout(r, 2000));
    const atRest = await memoryOf(server.pid);
    const all = await prepareCases(server.url);
    const cases = all.filter((c) => ONLY.has(c.key));
    const share = all.find((c) => c.ceiling === "react")!;
    const shape = pageShape(await probe(share));
    const hello = await ceilingServer("bench/hello.ts");
    const react = await ceilingServer("bench/react_page.ts", {
      ELEMENTS: String(shape.elements),
      BYTES: String(shape.bytes),
    });
    const kvEnv = { DIR: dataDir, CONTENT: PASTE_TEXT };
    const kvGet = await ceilingServer("bench/kv_serve.ts", { ...kvEnv, MODE: "get" });
    const kvGrouped = await ceilingServer("bench/kv_serve.ts", { ...kvEnv, MODE: "get-grouped" });
    const kvPage = await ceilingServer("bench/kv_serve.ts", { ...kvEnv, MODE: "page-read" });
    const kvCommit = await ceilingServer("bench/kv_serve.ts", { ...kvEnv, MODE: "commit" });

    const deno = await measureBest(getCase("Ceiling: bare Deno.serve", hello.url), hello.pid);
    const deno1 = await measureBest(
      getCase("Ceiling: bare Deno.serve, 1 conn", hello.url, 1),
      hello.pid,
    );
    const rows: Row[] = [
      { name: "Ceiling: bare `Deno.serve` hello-world", r: deno },
      { name: "Ceiling: bare `Deno.serve` hello-world, 1 connection", r: deno1 },
    ];
    const ceilingRows: Row[] = [];
    /** Each ceiling is measured once, right before the first case compared with it. */
    const ceilings = new Map<string, Promise<{ label: string; r: Measured }>>();
    const ceilingOf = (c: Case): Promise<{ label: string; r: Measured }> => {
      if (!c.ceiling) {
        return Promise.resolve(
          c.connections === 1
            ? { label: "bare `Deno.serve`, 1 connection", r: deno1 }
            : { label: "bare `Deno.serve`", r: deno },
        );
      }
      let found = ceilings.get(c.ceiling);
      if (!found) {
        found = measureCeiling(c.ceiling);
        ceilings.set(c.ceiling, found);
      }
      return found;
    };
    const measureCeiling = async (kind: "react" | "read" | "commit") => {
      if (kind === "react") {
        const r = await measureBest(getCase("Ceiling: React renderToString", react.url), react.pid);
        ceilingRows.push({
          name: `Ceiling: React \`renderToString\` page (${shape.elements} elements, ` +
            `${fmt(shape.bytes / 1024, 1)} KiB), bare \`Deno.serve\``,
          r,
        });
        // For information: the share page's own read (two keys), measured alongside.
        const page = await measureBest(getCase("KV read of a share page", kvPage.url), kvPage.pid);
        ceilingRows.push({
          name: "For reference: the share page's read (`getMany` of record and counter), " +
            "bare `Deno.serve`",
          r: page,
        });
        return { label: "React page", r };
      }
      if (kind === "read") {
        const r = await measureBest(getCase("Ceiling: one kv.get", kvGet.url), kvGet.pid);
        ceilingRows.push({
          name: `Ceiling: one \`kv.get\` per request (${fmt(PASTE_TEXT.length / 1024, 1)} KiB ` +
            "record, answered as text), bare `Deno.serve`",
          r,
        });
        // For information: the same read through the read groups Cubby's lookups use.
        const grouped = await measureBest(
          getCase("KV read through read groups", kvGrouped.url),
          kvGrouped.pid,
        );
        ceilingRows.push({
          name: "For reference: the same `kv.get` through `server/kv/read_groups.ts` (reads " +
            "arriving together share one `getMany`), bare `Deno.serve`",
          r: grouped,
        });
        return { label: "one `kv.get`", r };
      }
      const r = await measureBest({
        name: "Ceiling: one commit",
        method: "POST",
        url: kvCommit.url,
        body: "{}",
        expectStatus: 201,
      }, kvCommit.pid);
      ceilingRows.push({
        name: "Ceiling: one `kv.atomic().check().set().set().commit()` per request, bare " +
          "`Deno.serve`",
        r,
      });
      return { label: "one commit", r };
    };

    const caseRows: Row[] = [];
    for (const c of cases) {
      const ceiling = await ceilingOf(c);
      const r = await measureBest(c, server.pid);
      caseRows.push({ name: c.name, r, ceiling, goal: c.goal });
    }
    rows.push(...ceilingRows, ...caseRows);
    const peak = await memoryOf(server.pid);

    const table = formatTable(rows);
    const section = [
      `Measured ${new Date().toISOString().slice(0, 10)} with wrk (1 thread, ${CONNECTIONS} ` +
      `connections unless noted, ${WARMUP_S} s warm-up, best of ${RUNS} runs of ` +
      `${DURATION_S} s) on ${navigator.hardwareConcurrency} cores (${await cpuModel()}), Deno ` +
      `${Deno.version.deno}, ${Deno.build.os}. Cubby ran ${
        opts.server === "source"
          ? "from its sources (`main.ts`)"
          : "as `deno task start` runs it (the bundle in `dist-server/`)"
      }${opts["v8-flags"] ? ` with \`--v8-flags=${opts["v8-flags"]}\`` : ""}. ` +
      `Every server pinned to core ${SERVER_CORE}, wrk ` +
      `to core ${LOAD_CORE}. 1-minute load average ${load.toFixed(1)} at the start` +
      (load > 0.5
        ? ": the machine was shared with other work, which lowers every row, ceilings included; " +
          "read the ratios, not the absolute numbers."
        : "."),
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
