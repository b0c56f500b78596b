/**
 * HTTP throughput of the real server (main.ts on 127.0.0.1, a temporary data dir), measured
 * with wrk when it is installed and autocannon otherwise, against a bare Deno.serve
 * hello-world in its own process as the ceiling. Writes the table into bench/README.md.
 *
 *   deno task bench [--duration=5] [--warmup=1] [--connections=32] [--threads=1]
 *                   [--tool=wrk|autocannon] [--no-write]
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { loginAdmin, startServer, type TestServer } from "../tests/helpers/server.ts";

type Case = {
  name: string;
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: string;
  expectStatus: number;
};
type Result = { rps: number; p99Ms: number; requests: number; non2xx: number; errors: number };
type Tool = "wrk" | "autocannon";

const { values: opts } = parseArgs({
  args: Deno.args,
  options: {
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "32" },
    threads: { type: "string", default: "1" },
    tool: { type: "string" },
    "no-write": { type: "boolean", default: false },
  },
});
const DURATION_S = Number(opts.duration);
const WARMUP_S = Number(opts.warmup);
const CONNECTIONS = Number(opts.connections);
const THREADS = Number(opts.threads);
const README = join(import.meta.dirname!, "README.md");
const START_MARK = "<!-- bench:results:start -->";
const END_MARK = "<!-- bench:results:end -->";
const PASTE_TEXT = "# Benchmark paste\n\n" + "Cubby keeps text and files for you. ".repeat(30);

/** True when `wrk` is on PATH (`wrk -v` prints its version and exits 1, so only spawn counts). */
async function hasWrk(): Promise<boolean> {
  try {
    await new Deno.Command("wrk", { args: ["-v"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}

/** Parses a wrk duration such as `812.00us`, `3.21ms` or `1.02s` into milliseconds. */
export function parseWrkDuration(text: string): number {
  const m = text.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!m) throw new Error(`unexpected wrk duration "${text}"`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as "us" | "ms" | "s" | "m"];
  return Number(m[1]) * scale;
}

/** Reads requests/s, p99, totals and errors from `wrk --latency` output. */
export function parseWrkOutput(out: string): Result {
  const rps = out.match(/Requests\/sec:\s+([\d.]+)/)?.[1];
  const p99 = out.match(/^\s+99%\s+(\S+)/m)?.[1];
  const total = out.match(/(\d+) requests in/)?.[1];
  if (!rps || !p99 || !total) throw new Error(`cannot read wrk output:\n${out}`);
  const socket = out.match(/connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    rps: Number(rps),
    p99Ms: parseWrkDuration(p99),
    requests: Number(total),
    non2xx: Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    errors: socket ? socket.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
  };
}

async function runWrk(c: Case, seconds: number): Promise<Result> {
  const args = [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "--timeout=10s"];
  for (const [k, v] of Object.entries(c.headers ?? {})) args.push("-H", `${k}: ${v}`);
  let script: string | null = null;
  if (c.method !== "GET" || c.body) {
    script = await Deno.makeTempFile({ prefix: "cubby-bench-", suffix: ".lua" });
    await Deno.writeTextFile(
      script,
      `wrk.method = ${JSON.stringify(c.method)}\nwrk.body = ${JSON.stringify(c.body ?? "")}\n`,
    );
    args.push("-s", script);
  }
  try {
    const out = await new Deno.Command("wrk", { args: [...args, c.url], stderr: "inherit" })
      .output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) throw new Error(`wrk failed:\n${text}`);
    return parseWrkOutput(text);
  } finally {
    if (script) await Deno.remove(script);
  }
}

async function runAutocannon(c: Case, seconds: number): Promise<Result> {
  // deno-lint-ignore no-explicit-any
  const autocannon = (await import("autocannon")).default as any;
  const r = await autocannon({
    url: c.url,
    method: c.method,
    headers: c.headers,
    body: c.body,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
  });
  return {
    rps: r.requests.average,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** Sends the case's request once and checks its status, so we never benchmark an error. */
async function probe(c: Case): Promise<void> {
  const res = await fetch(c.url, { method: c.method, headers: c.headers, body: c.body });
  const text = await res.text();
  if (res.status !== c.expectStatus) {
    throw new Error(
      `${c.name}: ${c.method} ${c.url} answered ${res.status}, not ${c.expectStatus}: ` +
        text.slice(0, 300),
    );
  }
}

/** Starts bench/hello.ts in its own process; resolves with its URL and a stop function. */
async function startHelloWorld(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(import.meta.dirname!, "hello.ts")],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`hello-world server exited early: ${seen}`);
    seen += value;
    const m = seen.match(/listening on (http:\/\/\S+)/);
    if (m) {
      reader.releaseLock();
      const drain = child.stdout.pipeTo(new WritableStream()).catch(() => {});
      return {
        url: m[1],
        stop: async () => {
          child.kill("SIGTERM");
          await child.status;
          await drain;
        },
      };
    }
  }
}

async function prepareCases(server: TestServer): Promise<Case[]> {
  const token = await loginAdmin(server);
  const keyRes = await fetch(`${server.url}/api/admin/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench", permissions: { text: true } }),
  });
  const keyBody = await keyRes.json();
  if (keyRes.status !== 201) throw new Error(`creating an API key: ${JSON.stringify(keyBody)}`);
  const auth = { authorization: `ApiKey ${keyBody.data.key}` };
  const json = { "content-type": "application/json" };

  const pasteRes = await fetch(`${server.url}/api/paste`, {
    method: "POST",
    headers: { ...auth, ...json },
    body: JSON.stringify({ content: PASTE_TEXT }),
  });
  const pasteBody = await pasteRes.json().catch(() => null);
  const slug = pasteBody?.data?.slug;
  if (pasteRes.status !== 201 || !slug) {
    throw new Error(
      `POST /api/paste answered ${pasteRes.status} ${JSON.stringify(pasteBody)}; the bench ` +
        `needs the pastes API (201 with data.slug)`,
    );
  }
  return [
    {
      name: "API floor: `GET /api/version`",
      method: "GET",
      url: `${server.url}/api/version`,
      expectStatus: 200,
    },
    {
      name: "Paste create: `POST /api/paste` (API key)",
      method: "POST",
      url: `${server.url}/api/paste`,
      headers: { ...auth, ...json },
      body: JSON.stringify({ content: "Benchmark paste from wrk: hello, Cubby!" }),
      expectStatus: 201,
    },
    {
      name: "JSON view: `GET /api/paste/:slug`",
      method: "GET",
      url: `${server.url}/api/paste/${slug}`,
      expectStatus: 200,
    },
    {
      name: "Raw view: `GET /api/raw/:slug`",
      method: "GET",
      url: `${server.url}/api/raw/${slug}`,
      expectStatus: 200,
    },
    {
      name: "Share page (SSR): `GET /paste/:slug`",
      method: "GET",
      url: `${server.url}/paste/${slug}`,
      expectStatus: 200,
    },
  ];
}

function formatTable(rows: [string, Result][], ceiling: Result): string {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const lines = [
    "| Case | Requests/s | p99 latency | Req/s vs ceiling | p99 vs ceiling | Non-2xx / errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const [name, r] of rows) {
    const isCeiling = r === ceiling;
    lines.push(
      `| ${name} | ${fmt(r.rps)} | ${fmt(r.p99Ms, 2)} ms | ` +
        `${isCeiling ? "100%" : fmt((100 * r.rps) / ceiling.rps, 1) + "%"} | ` +
        `${isCeiling ? "1.0×" : fmt(r.p99Ms / ceiling.p99Ms, 1) + "×"} | ` +
        `${r.non2xx} / ${r.errors} |`,
    );
  }
  return lines.join("\n");
}

async function cpuModel(): Promise<string> {
  try {
    const info = await Deno.readTextFile("/proc/cpuinfo");
    return info.match(/model name\s*:\s*(.+)/)?.[1]?.trim() ?? "unknown CPU";
  } catch {
    return "unknown CPU";
  }
}

async function writeReadme(section: string): Promise<void> {
  const text = await Deno.readTextFile(README).catch(() => "# Benchmarks\n");
  const start = text.indexOf(START_MARK);
  const end = text.indexOf(END_MARK);
  const block = `${START_MARK}\n${section}\n${END_MARK}`;
  const next = start >= 0 && end > start
    ? text.slice(0, start) + block + text.slice(end + END_MARK.length)
    : `${text.trimEnd()}\n\n${block}\n`;
  await Deno.writeTextFile(README, next);
  // Keep `deno fmt --check` (deno task ok) green: let the formatter align the table.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", README] }).output();
}

if (import.meta.main) {
  const tool: Tool = (opts.tool as Tool | undefined) ?? (await hasWrk() ? "wrk" : "autocannon");
  const measure = tool === "wrk" ? runWrk : runAutocannon;
  console.log(`tool: ${tool}, ${CONNECTIONS} connections, ${DURATION_S} s per case`);

  const load = Deno.loadavg()[0];
  const server = await startServer();
  const hello = await startHelloWorld();
  const rows: [string, Result][] = [];
  let ceiling: Result | null = null;
  try {
    const cases: Case[] = [
      {
        name: "Ceiling: bare `Deno.serve` hello-world",
        method: "GET",
        url: hello.url,
        expectStatus: 200,
      },
      ...await prepareCases(server),
    ];
    for (const c of cases) {
      await probe(c);
      if (WARMUP_S > 0) await measure(c, WARMUP_S);
      const r = await measure(c, DURATION_S);
      ceiling ??= r;
      rows.push([c.name, r]);
      console.log(
        `${c.name.replaceAll("`", "")}: ${Math.round(r.rps)} req/s, p99 ${r.p99Ms.toFixed(2)} ms` +
          ` (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`,
      );
    }
  } catch (err) {
    console.error(`\n${err instanceof Error ? err.message : err}`);
    console.error(`server output:\n${server.output().slice(-2000)}`);
    await hello.stop();
    await server.stop();
    Deno.exit(1);
  }
  await hello.stop();
  await server.stop();

  const table = formatTable(rows, ceiling!);
  const section = [
    `Measured ${new Date().toISOString().slice(0, 10)} with ${tool} (${CONNECTIONS} connections` +
    `${tool === "wrk" ? `, ${THREADS} thread` + (THREADS > 1 ? "s" : "") : ""}, ` +
    `${WARMUP_S} s warm-up, ${DURATION_S} s per case) on ${navigator.hardwareConcurrency} ` +
    `cores (${await cpuModel()}), Deno ${Deno.version.deno}, ${Deno.build.os}, ` +
    `1-minute load average ${load.toFixed(1)} at the start (other work on the machine lowers ` +
    `every row, the ceiling included).`,
    "",
    table,
  ].join("\n");
  console.log(`\n${table}`);
  if (!opts["no-write"]) {
    await writeReadme(section);
    console.log(`\nwrote ${README}`);
  }
}
