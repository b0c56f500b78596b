/**
 * Cubby on a shared KV: the hot request kinds against denokv (KV Connect), with one instance and
 * with two behind nginx, each as a ratio to a bare loop making the same one KV operation against
 * the same denokv in the same run (bench/kv_connect_loop.ts). On a remote KV every round trip is
 * a network hop, so this shows what a request costs beyond its one KV operation there.
 *
 * Placement on this 2-core machine: the Cubby instances on core 0 (two instances share it), wrk
 * on core 1, denokv and nginx unpinned. So the two-instance row measures what nginx and a second
 * instance cost, not how throughput scales with cores. Writes its section of bench/README.md.
 *
 *   deno task bench:scale [--duration=5] [--runs=2] [--connections=32] [--no-write]
 */
import { join } from "node:path";
import { TEST_ADMIN } from "../tests/helpers/server.ts";
import { startDenoKv } from "../tests/helpers/denokv.ts";
import { startNginx } from "../tests/helpers/nginx.ts";
import { type Case, type Result, runWrk } from "./wrk.ts";
import { prepareCases, probe } from "./http_cases.ts";
import { cpuModel, fmt } from "./http_report.ts";
import { type Pinned, startPinned } from "./processes.ts";
import { writeReadmeSection } from "./readme_section.ts";
import { benchArgs } from "./args.ts";
import { serverCommand } from "./server_entry.ts";

const opts = benchArgs({ numbers: { duration: 5, runs: 2, connections: 32 }, flags: ["no-write"] });
const SECONDS = opts.duration;
const RUNS = Math.max(1, opts.runs);
const CONNECTIONS = opts.connections;
const ROOT = join(import.meta.dirname!, "..");
const KINDS = ["create", "json", "raw", "share"] as const;
const OP_OF: Record<(typeof KINDS)[number], "read" | "commit"> = {
  create: "commit",
  json: "read",
  raw: "read",
  share: "read",
};

/** The best of RUNS wrk runs of a case (after a 1-second warm-up). */
async function best(c: Case): Promise<Result> {
  await probe(c);
  await runWrk(c, 1, { core: "1", connections: CONNECTIONS });
  let top: Result | null = null;
  for (let i = 0; i < RUNS; i++) {
    const r = await runWrk(c, SECONDS, { core: "1", connections: CONNECTIONS });
    if (!top || r.rps > top.rps) top = r;
  }
  console.log(`${c.name}: ${fmt(top!.rps)} req/s`);
  return top!;
}

/** The best of RUNS runs of the bare loop for `op`, pinned to core 0 like an instance. */
async function loop(kvUrl: string, op: "read" | "commit"): Promise<number> {
  let top = 0;
  for (let i = 0; i < RUNS; i++) {
    const out = await new Deno.Command("taskset", {
      args: ["-c", "0", Deno.execPath(), "run", "-A", "bench/kv_connect_loop.ts"],
      cwd: ROOT,
      env: { KV_URL: kvUrl, OP: op, SECONDS: String(SECONDS), CONCURRENCY: String(CONNECTIONS) },
      stderr: "inherit",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const rate = Number(text.match(/ops\/s: ([\d.]+)/)?.[1]);
    if (!out.success || !Number.isFinite(rate)) throw new Error(`kv_connect_loop failed:\n${text}`);
    top = Math.max(top, rate);
  }
  console.log(`Ceiling: bare KV Connect ${op} loop: ${fmt(top)} ops/s`);
  return top;
}

if (import.meta.main) {
  const load = Deno.loadavg()[0];
  await using denokv = await startDenoKv();
  const procs: Pinned[] = [];
  const dirs: string[] = [];
  const instance = async () => {
    const dir = await Deno.makeTempDir({ prefix: "cubby-bench-scale-" });
    dirs.push(dir);
    const cubby = await serverCommand("bundle");
    const p = await startPinned(cubby.script, "0", ROOT, {
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      KV_URL: denokv.url,
      DENO_KV_ACCESS_TOKEN: denokv.token,
      ENCRYPTION_SECRET: "bench-scale-secret",
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      SWEEP_INTERVAL_MS: "0",
    }, cubby.flags);
    procs.push(p);
    return p;
  };
  try {
    const ceilings = {
      read: await loop(denokv.url, "read"),
      commit: await loop(denokv.url, "commit"),
    };
    const a = await instance();
    const one = await prepareCases(a.url);
    const rows: string[] = [];
    const measured: Record<string, Result> = {};
    for (const c of one.filter((c) => (KINDS as readonly string[]).includes(c.key))) {
      measured[`1:${c.key}`] = await best({ ...c, name: `1 instance: ${c.name}` });
    }
    const b = await instance();
    await using lb = await startNginx({ upstreams: [a.url, b.url].map((u) => new URL(u).host) });
    const viaLb = one.map((c) => ({ ...c, url: c.url.replace(a.url, lb.url) }));
    for (const c of viaLb.filter((c) => (KINDS as readonly string[]).includes(c.key))) {
      measured[`2:${c.key}`] = await best({ ...c, name: `2 instances behind nginx: ${c.name}` });
    }
    for (const c of one.filter((c) => (KINDS as readonly string[]).includes(c.key))) {
      const op = OP_OF[c.key as (typeof KINDS)[number]];
      const r1 = measured[`1:${c.key}`], r2 = measured[`2:${c.key}`];
      rows.push(
        `| ${c.name} | ${fmt(r1.rps)} | ${fmt(r1.rps / ceilings[op], 2)}× | ${fmt(r2.rps)} | ` +
          `${fmt(r2.rps / ceilings[op], 2)}× | ${fmt(r1.p50Ms, 2)} / ${fmt(r2.p50Ms, 2)} |`,
      );
    }
    const section = [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${navigator.hardwareConcurrency} ` +
      `cores (${await cpuModel()}), Deno ${Deno.version.deno}, denokv on 127.0.0.1; wrk with ` +
      `${CONNECTIONS} connections, best of ${RUNS} runs of ${SECONDS} s. Instances on core 0 (the ` +
      `two share it), wrk on core 1, denokv and nginx unpinned. 1-minute load average ` +
      `${load.toFixed(1)} at the start.`,
      "",
      `Ceilings, same denokv, same run, ${CONNECTIONS} operations in flight: a bare read loop ` +
      `(\`getMany\` of a record and its counter) ${
        fmt(ceilings.read)
      } reads/s; a bare commit loop ` +
      `(a checked commit of a record and an index) ${fmt(ceilings.commit)} commits/s.`,
      "",
      "| request | 1 instance req/s | vs its KV op | 2 instances + nginx req/s | vs its KV op | p50 ms (1 / 2) |",
      "|---|---|---|---|---|---|",
      ...rows,
    ].join("\n");
    console.log(`\n${section}`);
    if (!opts["no-write"]) await writeReadmeSection("scale", section);
  } finally {
    for (const p of procs) await p.stop();
    for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
  }
}
