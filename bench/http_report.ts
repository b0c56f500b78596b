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

/**
 * One row of the results table. A case row names its ceiling (`ceiling`, a short label, and the
 * ceiling's own measurement) and its goal, a least ratio of requests/s to the ceiling's; a
 * ceiling row has neither.
 */
export type Row = {
  name: string;
  r: Measured;
  ceiling?: { label: string; r: Measured };
  goal?: number;
};

/** The row's requests/s over its ceiling's, and its ceiling's CPU per request over its own. */
export function ratios(row: Row): { rps: number; cpu: number } | null {
  if (!row.ceiling) return null;
  return { rps: row.r.rps / row.ceiling.r.rps, cpu: row.ceiling.r.cpuUs / row.r.cpuUs };
}

/** "met" or "not met" against the goal, or "—" without one. */
export function goalText(row: Row): string {
  const got = ratios(row);
  if (row.goal === undefined || !got) return "—";
  return `≥ ${fmt(row.goal, 1)}×: ${got.rps >= row.goal ? "met" : "**not met**"}`;
}

/** The Markdown table of the rows. */
export function formatTable(rows: Row[]): string {
  const lines = [
    "| Case | Requests/s | p50 | p99 | Server CPU per request | Ceiling | " +
    "Requests/s: case / ceiling | Goal | CPU: ceiling / case | Non-2xx / errors |",
    "| --- | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: |",
  ];
  for (const row of rows) {
    const { name, r } = row;
    const got = ratios(row);
    lines.push(
      `| ${name} | ${fmt(r.rps)} | ${fmt(r.p50Ms, 2)} ms | ${fmt(r.p99Ms, 2)} ms | ` +
        `${fmt(r.cpuUs, 1)} µs | ${row.ceiling?.label ?? "—"} | ` +
        `${got ? ratio(got.rps) : "—"} | ${goalText(row)} | ${got ? ratio(got.cpu) : "—"} | ` +
        `${r.non2xx} / ${r.errors} |`,
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
