/**
 * Builds the client into dist/: the app bundle (code-split, hashed), the service worker with
 * its precache list, the files of static/ and the PNG icons made from static/favicon.svg. With
 * --if-needed it skips the build when dist/ is newer than sources.
 */
import * as esbuild from "esbuild";
import { join, relative, resolve } from "node:path";
import { buildIcons } from "./build_icons.ts";
import { APP_SHELL_PATH, OFFLINE_PATH } from "../shared/pwa.ts";
import { type Language, LANGUAGES } from "../shared/constants.ts";

const root = resolve(import.meta.dirname!, "..");
/** Where the build goes: CUBBY_DIST_DIR (the directory the server reads too), else dist/. */
const dist = resolve(Deno.env.get("CUBBY_DIST_DIR") || join(root, "dist"));
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

/** The output of each language's locale module (client/i18n/catalogue_<lang>.ts); throws if none. */
function languageChunks(meta: esbuild.Metafile): Record<Language, string> {
  const chunks = {} as Record<Language, string>;
  for (const lang of LANGUAGES) {
    const source = `client/i18n/catalogue_${lang.toLowerCase().replace("-", "_")}.ts`;
    const out = Object.entries(meta.outputs).find(([, o]) =>
      Object.keys(o.inputs).some((i) => i.endsWith(source))
    );
    if (!out) throw new Error(`build: the chunk of ${source} is missing`);
    chunks[lang] = out[0];
  }
  return chunks;
}

/**
 * The outputs a first page load needs: the entry, every chunk it imports statically (not the
 * lazy route chunks), the language chunks and their stylesheets. These are what the service
 * worker precaches.
 */
function initialAssets(meta: esbuild.Metafile, entry: string): string[] {
  const seen = new Set<string>();
  // The document loads its language's texts before the entry (client/i18n/registry.ts), and the
  // language switcher loads the other one: every language chunk is part of a first load.
  const languages = Object.values(languageChunks(meta));
  const visit = (p: string) => {
    if (seen.has(p)) return;
    seen.add(p);
    const out = meta.outputs[p];
    if (out.cssBundle) seen.add(out.cssBundle);
    for (const i of out.imports) if (i.kind === "import-statement" && !i.external) visit(i.path);
  };
  visit(entry);
  for (const p of languages) visit(p);
  return [...seen];
}

/** Bundles client/sw/sw.ts into dist/sw.js with its precache list; a missing source throws. */
async function buildServiceWorker(
  common: esbuild.BuildOptions,
  precache: { url: string; revision: string | null }[],
  buildId: string,
) {
  const source = join(root, "client/sw/sw.ts");
  await Deno.stat(source).catch(() => {
    throw new Error(`build: the service worker source ${source} is missing`);
  });
  await esbuild.build({
    ...common,
    entryPoints: [source],
    outfile: join(dist, "sw.js"),
    format: "iife",
    define: {
      ...common.define,
      __CUBBY_PRECACHE__: JSON.stringify(precache),
      __CUBBY_BUILD_ID__: JSON.stringify(buildId),
    },
  });
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
  const buildId = `${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  const manifest = {
    js: url(entry[0]),
    css: entry[1].cssBundle ? [url(entry[1].cssBundle)] : [],
    /** Each language's locale chunk, which the document loads before the entry. */
    languages: Object.fromEntries(
      Object.entries(languageChunks(app.metafile!)).map(([l, p]) => [l, url(p)]),
    ),
    files: outputs.map(([p]) => url(p)).filter((p) => !p.endsWith(".map")),
    built_at: new Date().toISOString(),
    build_id: buildId,
    precache: [] as { url: string; revision: string | null }[],
  };
  await copyDir(join(root, "static"), dist);
  const icons = await buildIcons(join(root, "static/favicon.svg"), dist);
  manifest.precache = [
    ...initialAssets(app.metafile!, entry[0]).map((p) => ({ url: url(p), revision: null })),
    ...[...icons, "/favicon.svg", APP_SHELL_PATH, OFFLINE_PATH].map((u) => ({
      url: u,
      revision: buildId,
    })),
  ];
  await buildServiceWorker(common, manifest.precache, buildId);
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
