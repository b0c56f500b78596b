/**
 * Builds the client into dist/: the app bundle (code-split, hashed), the service worker, and
 * the files of static/. With --if-needed it skips the build when dist/ is newer than sources.
 */
import * as esbuild from "esbuild";
import { join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname!, "..");
const dist = join(root, "dist");
const SOURCES = ["client", "shared", "static"];

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) newest = Math.max(newest, await newestMtime(p));
    else newest = Math.max(newest, (await Deno.stat(p)).mtime?.getTime() ?? 0);
  }
  return newest;
}

async function isUpToDate(): Promise<boolean> {
  try {
    const built = (await Deno.stat(join(dist, "manifest.json"))).mtime?.getTime() ?? 0;
    for (const s of SOURCES) if (await newestMtime(join(root, s)) > built) return false;
    return true;
  } catch {
    return false;
  }
}

async function copyDir(from: string, to: string) {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isDirectory) await copyDir(src, dst);
    else await Deno.copyFile(src, dst);
  }
}

/** Runs the build; returns the manifest written. */
export async function buildClient({ minify = true } = {}) {
  await Deno.remove(dist, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(dist, "assets"), { recursive: true });
  const common: esbuild.BuildOptions = {
    bundle: true,
    minify,
    sourcemap: "linked",
    target: ["es2022", "chrome110", "firefox110", "safari16"],
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    legalComments: "none",
    logLevel: "warning",
  };
  const app = await esbuild.build({
    ...common,
    entryPoints: { main: join(root, "client/main.tsx") },
    outdir: join(dist, "assets"),
    format: "esm",
    splitting: true,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
  });
  const outputs = Object.entries(app.metafile!.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint?.endsWith("client/main.tsx"));
  if (!entry) throw new Error("build: the entry bundle is missing");
  const url = (p: string) => "/" + relative(dist, resolve(root, p)).replaceAll("\\", "/");
  const manifest = {
    js: url(entry[0]),
    css: entry[1].cssBundle ? [url(entry[1].cssBundle)] : [],
    files: outputs.map(([p]) => url(p)).filter((p) => !p.endsWith(".map")),
    built_at: new Date().toISOString(),
  };
  try {
    await Deno.stat(join(root, "client/sw/sw.ts"));
    await esbuild.build({
      ...common,
      entryPoints: [join(root, "client/sw/sw.ts")],
      outfile: join(dist, "sw.js"),
      format: "iife",
      define: {
        ...common.define,
        "self.__CUBBY_PRECACHE__": JSON.stringify(manifest.files),
      },
    });
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  await copyDir(join(root, "static"), dist);
  await Deno.writeTextFile(join(dist, "manifest.json"), JSON.stringify(manifest, null, 2));
  await esbuild.stop();
  return manifest;
}

if (import.meta.main) {
  if (Deno.args.includes("--if-needed") && await isUpToDate()) {
    console.log("client is up to date");
  } else {
    const started = performance.now();
    const m = await buildClient({ minify: !Deno.args.includes("--dev") });
    console.log(`built client in ${Math.round(performance.now() - started)} ms: ${m.js}`);
  }
}
