/** Runs wrk (pinned to a core with taskset) and reads its output, for bench/http.ts. */

/** One benchmarked request. */
export type Case = {
  name: string;
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: string;
  expectStatus: number;
  connections?: number;
  /** Paths (on `url`'s origin) that the requests go through in turn, instead of `url`'s own. */
  paths?: string[];
  /**
   * Which ceiling this row is compared with (bench/http.ts): the React page, one `kv.get` per
   * request, one commit per request; bare Deno.serve when unset.
   */
  ceiling?: "react" | "read" | "commit";
};
/** What one wrk run measured. */
export type Result = {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
};

/** Parses a wrk duration such as `812.00us`, `3.21ms` or `1.02s` into milliseconds. */
export function parseWrkDuration(text: string): number {
  const m = text.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!m) throw new Error(`unexpected wrk duration "${text}"`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as "us" | "ms" | "s" | "m"];
  return Number(m[1]) * scale;
}

/** Reads requests/s, p50, p99, totals and errors from `wrk --latency` output. */
export function parseWrkOutput(out: string): Result {
  const rps = out.match(/Requests\/sec:\s+([\d.]+)/)?.[1];
  const p50 = out.match(/^\s+50%\s+(\S+)/m)?.[1];
  const p99 = out.match(/^\s+99%\s+(\S+)/m)?.[1];
  const total = out.match(/(\d+) requests in/)?.[1];
  if (!rps || !p50 || !p99 || !total) throw new Error(`cannot read wrk output:\n${out}`);
  const socket = out.match(/connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    rps: Number(rps),
    p50Ms: parseWrkDuration(p50),
    p99Ms: parseWrkDuration(p99),
    requests: Number(total),
    non2xx: Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    errors: socket ? socket.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
  };
}

/** Runs `wrk --latency` pinned to `core` (taskset) against one case. */
export async function runWrk(
  c: Case,
  seconds: number,
  opts: { core: string; connections: number },
): Promise<Result> {
  const connections = c.connections ?? opts.connections;
  const args = [opts.core, "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency"];
  args.push("--timeout=10s");
  for (const [k, v] of Object.entries(c.headers ?? {})) args.push("-H", `${k}: ${v}`);
  let script: string | null = null;
  if (c.method !== "GET" || c.body || c.paths) {
    script = await Deno.makeTempFile({ prefix: "cubby-bench-", suffix: ".lua" });
    let lua = `wrk.method = ${JSON.stringify(c.method)}\nwrk.body = ${
      JSON.stringify(c.body ?? "")
    }\n`;
    if (c.paths) {
      // Lua's string syntax takes JSON's for these ASCII paths.
      lua += `local paths = { ${c.paths.map((p) => JSON.stringify(p)).join(", ")} }\n` +
        "local i = 0\n" +
        "request = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n";
    }
    await Deno.writeTextFile(script, lua);
    args.push("-s", script);
  }
  try {
    const out = await new Deno.Command("taskset", {
      args: ["-c", ...args, c.url],
      stderr: "inherit",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) throw new Error(`wrk failed:\n${text}`);
    return parseWrkOutput(text);
  } finally {
    if (script) await Deno.remove(script);
  }
}
