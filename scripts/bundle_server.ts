/**
 * Bundles the server for `deno task start`: main_bundle.ts, with every package it reaches, into
 * dist-server/ (minified, one chunk for each lazily imported module: the server-rendering
 * modules and the S3 driver). From the minified bundle, the server holds about 30 MiB less memory
 * after first use than from its modules (bench/README.md, "Memory after first use").
 *
 *   deno run -A scripts/bundle_server.ts [--if-needed] [--outdir DIR]
 *
 * --if-needed skips the bundle when its entry is newer than every source. The new files are
 * written beside the old ones and the entry is renamed into place last, so a server already
 * running from the directory still finds the chunks it imports later.
 */
import { join, resolve } from "node:path";
import { newestMtime } from "./newest_mtime.ts";

const root = resolve(import.meta.dirname!, "..");
export const BUNDLE_DIR = join(root, "dist-server");
export const BUNDLE_ENTRY = "main_bundle.js";
/** What the bundle is made of: a newer file here means the bundle is stale. */
const SOURCES = [
  "server",
  "shared",
  "client",
  "main.ts",
  "main_bundle.ts",
  "bundle_start.ts",
  "deno.json",
  "deno.lock",
];
/** Files a build no longer makes are removed once this old (a running server may import them). */
const STALE_MS = 24 * 3600_000;

/** Whether `outDir`'s entry is newer than every source. */
export async function isBundleUpToDate(outDir = BUNDLE_DIR): Promise<boolean> {
  try {
    const built = (await Deno.stat(join(outDir, BUNDLE_ENTRY))).mtime?.getTime() ?? 0;
    for (const s of SOURCES) if (await newestMtime(join(root, s)) > built) return false;
    return true;
  } catch {
    return false;
  }
}

async function deno(args: string[], what: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    throw new Error(`${what} failed:\n${text}`);
  }
}

/** Bundles the server into `outDir`; returns the entry's path. */
export async function bundleServer(outDir = BUNDLE_DIR): Promise<string> {
  await Deno.mkdir(outDir, { recursive: true });
  const staging = await Deno.makeTempDir({ dir: outDir, prefix: ".staging-" });
  try {
    await deno([
      "bundle",
      "--platform",
      "deno",
      "--minify",
      "--code-splitting",
      "--outdir",
      staging,
      "main_bundle.ts",
    ], "deno bundle");
    const made = new Set<string>();
    for await (const e of Deno.readDir(staging)) if (e.isFile) made.add(e.name);
    if (!made.has(BUNDLE_ENTRY)) throw new Error(`deno bundle made no ${BUNDLE_ENTRY}`);
    for (const name of made) {
      if (name !== BUNDLE_ENTRY) await Deno.rename(join(staging, name), join(outDir, name));
    }
    await Deno.rename(join(staging, BUNDLE_ENTRY), join(outDir, BUNDLE_ENTRY));
    const now = Date.now();
    for await (const e of Deno.readDir(outDir)) {
      // Files of older builds, and the staging folders of builds that were stopped.
      if (made.has(e.name) || (!e.isFile && !e.name.startsWith(".staging-"))) continue;
      const path = join(outDir, e.name);
      const info = await Deno.stat(path);
      if (now - (info.mtime?.getTime() ?? now) > STALE_MS) {
        await Deno.remove(path, { recursive: true });
      }
    }
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
  const entry = join(outDir, BUNDLE_ENTRY);
  await cacheAnalysis(entry);
  return entry;
}

/**
 * Deno analyses the imports of a module it runs for the first time and caches the result in
 * DENO_DIR: a 3 MB bundle analysed inside the server would leave it about 60 MiB larger for
 * good. `deno cache` does it here instead; with the analysis cached already, it takes a few ms.
 */
export async function cacheAnalysis(entry: string): Promise<void> {
  await deno(["cache", "--unstable-kv", "--unstable-cron", entry], "deno cache");
}

if (import.meta.main) {
  const args = [...Deno.args];
  const ifNeeded = args.includes("--if-needed");
  const at = args.indexOf("--outdir");
  const outDir = at === -1 ? BUNDLE_DIR : resolve(args[at + 1] ?? "");
  const unknown = args.filter((a, i) => a !== "--if-needed" && i !== at && i !== at + 1);
  if (unknown.length || (at !== -1 && !args[at + 1])) {
    console.error(`usage: bundle_server.ts [--if-needed] [--outdir DIR]   (unknown: ${unknown})`);
    Deno.exit(2);
  }
  if (ifNeeded && await isBundleUpToDate(outDir)) {
    // An up-to-date bundle may still be new to this DENO_DIR (another user, a fresh cache).
    await cacheAnalysis(join(outDir, BUNDLE_ENTRY));
    console.log(`server bundle up to date: ${join(outDir, BUNDLE_ENTRY)}`);
  } else {
    const started = performance.now();
    const entry = await bundleServer(outDir);
    console.log(
      `bundled the server into ${entry} in ${Math.round(performance.now() - started)} ms`,
    );
  }
}
