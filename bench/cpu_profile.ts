/**
 * Summarises a V8 `.cpuprofile` (what `deno run --cpu-prof` writes): self and inclusive time by
 * function (name, file and line of the frame) and self time by file, over the samples of a time
 * window, as shares of the busy time (samples that are neither idle nor garbage collection are
 * "busy"; GC is listed as its own row).
 *
 *   deno run -A bench/cpu_profile.ts FILE.cpuprofile [--last=SECONDS] [--top=30]
 */
import { parseArgs } from "node:util";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
/** The JSON of a `.cpuprofile`. */
export type CpuProfile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** One function's share of the busy samples. */
export type FunctionRow = { frame: string; self: number; total: number };
/** What summarise found. */
export type Summary = {
  /** Main-thread time in the window's busy samples, in microseconds. */
  busyUs: number;
  busySamples: number;
  idleSamples: number;
  functions: FunctionRow[];
  files: { file: string; self: number }[];
};

const ROOT_URL = new URL("../", import.meta.url).href;

/** A frame as `name file:line` (1-based line, repository paths relative, npm paths shortened). */
export function frameName(f: CallFrame): string {
  let file = f.url;
  if (file.startsWith(ROOT_URL)) file = file.slice(ROOT_URL.length);
  const npm = file.match(/node_modules\/\.deno\/([^/]+)\/node_modules\/(.*)$/);
  if (npm) file = npm[2];
  return `${f.functionName || "(anonymous)"} ${file || "(native)"}${
    file ? `:${f.lineNumber + 1}` : ""
  }`;
}

/** The file part of a frame name. */
const fileOf = (frame: string) => frame.slice(frame.indexOf(" ") + 1).replace(/:\d+$/, "");

/**
 * Self and inclusive sample counts by frame, over samples taken in the last `lastUs`
 * microseconds of the profile (all of them when omitted), as fractions of the busy samples.
 */
export function summarise(profile: CpuProfile, lastUs?: number): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push(t += d);
  const from = lastUs === undefined ? -Infinity : profile.endTime - lastUs;

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  let busyUs = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (times[i] < from) continue;
    const leaf = byId.get(profile.samples[i])!;
    const leafName = leaf.callFrame.functionName;
    if (leafName === "(idle)") {
      idle++;
      continue;
    }
    busy++;
    busyUs += profile.timeDeltas[i + 1] ?? 0; // the time until the next sample
    const name = leafName === "(garbage collector)" || leafName === "(program)"
      ? leafName
      : frameName(leaf.callFrame);
    self.set(name, (self.get(name) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id)!;
      if (node.callFrame.functionName === "(root)") break;
      const frame = node === leaf ? name : frameName(node.callFrame);
      if (seen.has(frame)) continue; // recursion counts once per sample
      seen.add(frame);
      total.set(frame, (total.get(frame) ?? 0) + 1);
    }
  }
  const share = (n: number) => n / Math.max(1, busy);
  const functions = [...total].map(([frame, n]) => ({
    frame,
    self: share(self.get(frame) ?? 0),
    total: share(n),
  }));
  const files = new Map<string, number>();
  for (const [frame, n] of self) {
    const file = /^\(.*\)$/.test(frame) ? frame : fileOf(frame);
    files.set(file, (files.get(file) ?? 0) + n);
  }
  return {
    busyUs,
    busySamples: busy,
    idleSamples: idle,
    functions,
    files: [...files].map(([file, n]) => ({ file, self: share(n) })).sort((a, b) =>
      b.self - a.self
    ),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1).padStart(5)}%`;

/**
 * The summary as text: top functions by self time, by inclusive time (ours only), top files.
 * With the number of `requests` served in the window, the busy time per request too.
 */
export function formatSummary(s: Summary, top = 30, requests?: number): string {
  const lines = [
    `${s.busySamples} busy samples, ${s.idleSamples} idle ` +
    `(${pct(s.busySamples / Math.max(1, s.busySamples + s.idleSamples))} busy)` +
    (requests
      ? `; main thread busy ${(s.busyUs / requests).toFixed(1)} µs per request ` +
        "(100% below; the profiler adds its own cost)"
      : ""),
    "",
    "By self time:",
  ];
  const bySelf = [...s.functions].sort((a, b) => b.self - a.self).slice(0, top);
  for (const f of bySelf) lines.push(`  ${pct(f.self)} self ${pct(f.total)} total  ${f.frame}`);
  lines.push("", "By inclusive time, the repository's own code (server/, shared/, client/):");
  const ours = s.functions.filter((f) => / (server|shared|client)\//.test(f.frame))
    .sort((a, b) => b.total - a.total).slice(0, top);
  for (const f of ours) lines.push(`  ${pct(f.total)} total ${pct(f.self)} self  ${f.frame}`);
  lines.push("", "By file (self time):");
  for (const f of s.files.slice(0, top)) lines.push(`  ${pct(f.self)}  ${f.file}`);
  return lines.join("\n");
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { last: { type: "string" }, top: { type: "string", default: "30" } },
  });
  if (!positionals[0]) throw new Error("usage: bench/cpu_profile.ts FILE.cpuprofile");
  const profile = JSON.parse(await Deno.readTextFile(positionals[0])) as CpuProfile;
  const lastUs = values.last ? Number(values.last) * 1e6 : undefined;
  console.log(formatSummary(summarise(profile, lastUs), Number(values.top)));
}
