/** The results table of bench/http.ts and its place in bench/README.md. */
import type { Result } from "./wrk.ts";

const START_MARK = "<!-- bench:results:start -->";
const END_MARK = "<!-- bench:results:end -->";

/** Formats a number with thousands separators and `digits` decimals. */
export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** Formats a ratio as `0.18×`. */
export const ratio = (n: number) => `${fmt(n, n < 0.1 ? 3 : 2)}×`;

/** A case's best run, with the server's CPU time per request. */
export type Measured = Result & { cpuUs: number };

/** One row of the results table; `cpuVs` is its ceiling's CPU per request over its own. */
export type Row = {
  name: string;
  r: Measured;
  vsDeno: number;
  own?: { label: string; value: number };
  cpuVs: number;
};

/** The Markdown table of the rows. */
export function formatTable(rows: Row[]): string {
  const lines = [
    "| Case | Requests/s | p50 | p99 | vs bare `Deno.serve` | vs its own ceiling | " +
    "Server CPU per request | CPU: ceiling / case | Non-2xx / errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const { name, r, vsDeno, own, cpuVs } of rows) {
    lines.push(
      `| ${name} | ${fmt(r.rps)} | ${fmt(r.p50Ms, 2)} ms | ${fmt(r.p99Ms, 2)} ms | ` +
        `${ratio(vsDeno)} | ${own ? `${ratio(own.value)} ${own.label}` : "—"} | ` +
        `${fmt(r.cpuUs, 1)} µs | ${ratio(cpuVs)} | ${r.non2xx} / ${r.errors} |`,
    );
  }
  return lines.join("\n");
}

/** The CPU model name from /proc/cpuinfo. */
export async function cpuModel(): Promise<string> {
  try {
    const info = await Deno.readTextFile("/proc/cpuinfo");
    return info.match(/model name\s*:\s*(.+)/)?.[1]?.trim() ?? "unknown CPU";
  } catch {
    return "unknown CPU";
  }
}

/** Replaces the results block of `readme` with `section`, then formats the file. */
export async function writeReadme(README: string, section: string): Promise<void> {
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
