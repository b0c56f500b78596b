/**
 * Builds the client into dist/: the app bundle (code-split, hashed), the share pages' bundle
 * (client/share_main.tsx on Preact, see shareBuildPlugin), the service worker with its precache
 * list, the files of static/ and the PNG icons made from static/favicon.svg. With --if-needed it
 * skips the build when dist/ is newer than sources.
 */
import * as esbuild from "esbuild";
import { join, relative, resolve } from "node:path";
import { buildIcons } from "./build_icons.ts";
import { APP_SHELL_PATH, OFFLINE_PATH } from "../shared/pwa.ts";
import { type Language, LANGUAGES } from "../shared/constants.ts";
import { pickShareTexts } from "../client/share/texts.ts";
import { resourceFor } from "../client/i18n/mod.ts";
import { buildCli } from "./build_cli.ts";
import { newestMtime } from "./newest_mtime.ts";

const root = resolve(import.meta.dirname!, "..");
/** Where the build goes: CUBBY_DIST_DIR (the directory the server reads too), else dist/. */
const dist = resolve(Deno.env.get("CUBBY_DIST_DIR") || join(root, "dist"));
const SOURCES = ["client", "shared", "static", "cli"];

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

/** A language as it appears in module names: en_us, zh_cn. */
const langFile = (lang: Language) => lang.toLowerCase().replace("-", "_");

/**
 * The output of each language's texts module (`${prefix}<lang>.ts`: the app's
 * client/i18n/catalogue_, the share pages' client/share/texts_); throws if one is missing.
 */
function languageChunks(meta: esbuild.Metafile, prefix: string): Record<Language, string> {
  const chunks = {} as Record<Language, string>;
  for (const lang of LANGUAGES) {
    const source = `${prefix}${langFile(lang)}.ts`;
    const out = Object.entries(meta.outputs).find(([, o]) =>
      Object.keys(o.inputs).some((i) => i.endsWith(source))
    );
    if (!out) throw new Error(`build: the chunk of ${source} is missing`);
    chunks[lang] = out[0];
  }
  return chunks;
}

/** An output and every output it imports statically (not the lazy chunks), with stylesheets. */
function staticClosure(meta: esbuild.Metafile, from: string[]): string[] {
  const seen = new Set<string>();
  const visit = (p: string) => {
    if (seen.has(p)) return;
    seen.add(p);
    const out = meta.outputs[p];
    if (out.cssBundle) seen.add(out.cssBundle);
    for (const i of out.imports) if (i.kind === "import-statement" && !i.external) visit(i.path);
  };
  for (const p of from) visit(p);
  return [...seen];
}

/**
 * The outputs a first page load needs: the entry, every chunk it imports statically (not the
 * lazy route chunks), the language chunks and their stylesheets. These are what the service
 * worker precaches. The document loads its language's texts before the entry
 * (client/i18n/registry.ts), and the language switcher loads the other one: every language
 * chunk is part of a first load.
 */
function initialAssets(meta: esbuild.Metafile, entry: string, textsPrefix: string): string[] {
  return staticClosure(meta, [
    entry,
    ...Object.values(languageChunks(meta, textsPrefix)),
    ...STARTUP_IMPORTS.map((source) => lazyOutput(meta, source)),
  ]);
}

/**
 * Lazy modules both entries import as they start: the offline store (main.tsx and share_main.tsx
 * open it at once) and Dexie's `liveQuery` for the queue indicator. They are part of a first load
 * too, so an app that goes offline right after it first loaded still reads its offline copies.
 */
const STARTUP_IMPORTS = [/^client\/offline\/db\.ts$/, /\/dexie\/import-wrapper\.mjs$/];

/** The output of a dynamically imported module; a missing one throws. */
function lazyOutput(meta: esbuild.Metafile, source: RegExp): string {
  const out = Object.entries(meta.outputs).find(([, o]) => source.test(o.entryPoint ?? ""));
  if (!out) throw new Error(`build: the lazy chunk of ${source} is missing`);
  return out[0];
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

/**
 * What makes the share pages' bundle small (docs/DECISIONS.md, "Share pages hydrate with
 * Preact"), applied to client/share_main.tsx only:
 *
 * - react, react-dom and their subpaths resolve to preact/compat, which hydrates the markup the
 *   server renders with React (tests/e2e/share_hydration.spec.ts checks it leaves it as is);
 * - react-router resolves to client/share/router.tsx, and client/i18n/browser.ts to
 *   client/share/i18n.ts, stand-ins with the same exports for the two share routes and texts;
 * - client/share/texts_<lang>.ts is evaluated here and bundled as its result (the picked keys of
 *   one language), instead of every locale file and both languages' error texts it reads.
 */
function shareBuildPlugin(): esbuild.Plugin {
  const preact: Record<string, string> = {
    "react": "preact/compat",
    "react-dom": "preact/compat",
    "react-dom/client": "preact/compat/client",
    "react/jsx-runtime": "preact/compat/jsx-runtime",
    "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
  };
  const swapped: Record<string, string> = {
    "react-router": join(root, "client/share/router.tsx"),
  };
  return {
    name: "cubby-share",
    setup(build) {
      build.onResolve({ filter: /^react(-dom)?(\/.*)?$/ }, async (args) => {
        const target = preact[args.path];
        if (!target) throw new Error(`share build: no Preact stand-in for "${args.path}"`);
        const r = await build.resolve(target, { kind: args.kind, resolveDir: root });
        return r.errors.length ? { errors: r.errors } : { path: r.path };
      });
      build.onResolve({ filter: /^react-router$/ }, (args) => ({ path: swapped[args.path] }));
      build.onResolve({ filter: /\/i18n\/browser\.ts$/ }, () => ({
        path: join(root, "client/share/i18n.ts"),
      }));
      build.onLoad({ filter: /client[\\/]share[\\/]texts_[a-z_]+\.ts$/ }, (args) => {
        const lang = LANGUAGES.find((l) => args.path.endsWith(`texts_${langFile(l)}.ts`));
        if (!lang) throw new Error(`share build: no language for ${args.path}`);
        const texts = JSON.stringify(pickShareTexts(resourceFor(lang)));
        return {
          contents: `import { registerShareTexts } from "./texts.ts";\n` +
            `registerShareTexts(${JSON.stringify(lang)}, ${texts});\n`,
          loader: "ts",
          resolveDir: join(root, "client/share"),
        };
      });
    },
  };
}

/** One code-split entry bundled into dist/assets; returns its metafile and entry output. */
async function buildEntry(
  common: esbuild.BuildOptions,
  name: string,
  source: string,
  plugins: esbuild.Plugin[] = [],
): Promise<{ meta: esbuild.Metafile; entry: string; css: string | undefined }> {
  const result = await esbuild.build({
    ...common,
    entryPoints: { [name]: join(root, source) },
    outdir: join(dist, "assets"),
    format: "esm",
    splitting: true,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
    plugins,
  });
  const meta = result.metafile!;
  // --metafile: keep esbuild's record of each output's inputs (esbuild's analyzer reads it).
  if (Deno.args.includes("--metafile")) {
    await Deno.writeTextFile(join(dist, `metafile-${name}.json`), JSON.stringify(meta));
  }
  const entry = Object.entries(meta.outputs).find(([, o]) => o.entryPoint?.endsWith(source));
  if (!entry) throw new Error(`build: the entry bundle of ${source} is missing`);
  return { meta, entry: entry[0], css: entry[1].cssBundle };
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
  const app = await buildEntry(common, "main", "client/main.tsx");
  const share = await buildEntry(common, "share", "client/share_main.tsx", [shareBuildPlugin()]);
  const url = (p: string) => "/" + relative(dist, resolve(root, p)).replaceAll("\\", "/");
  const buildId = `${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  /** The script, stylesheet and texts chunks a document of one entry loads. */
  const entryAssets = (b: typeof app, textsPrefix: string) => {
    const languages = languageChunks(b.meta, textsPrefix);
    return {
      js: url(b.entry),
      css: b.css ? [url(b.css)] : [],
      /** Each language's texts chunk, which the document loads before the entry. */
      languages: Object.fromEntries(Object.entries(languages).map(([l, p]) => [l, url(p)])),
      /**
       * By page language, the scripts a document loads before it hydrates: its texts chunk,
       * the entry and their static imports (tests/share_budget_test.ts, bench/pwa.ts).
       */
      first_load: Object.fromEntries(
        Object.entries(languages).map(([l, p]) => [
          l,
          staticClosure(b.meta, [p, b.entry]).filter((f) => f.endsWith(".js")).map(url),
        ]),
      ),
    };
  };
  const outputs = [...Object.keys(app.meta.outputs), ...Object.keys(share.meta.outputs)];
  if (share.css) throw new Error("build: client/share_main.tsx must import no stylesheet");
  const appAssets = entryAssets(app, "client/i18n/catalogue_");
  const manifest = {
    ...appAssets,
    /**
     * The share pages' entry (client/share_main.tsx), for /paste/{slug} and /file/{slug}, with
     * the app's stylesheet: it holds every style, and one file serves both kinds of page.
     */
    share: { ...entryAssets(share, "client/share/texts_"), css: appAssets.css },
    files: [...new Set(outputs.map(url))].filter((p) => !p.endsWith(".map")),
    built_at: new Date().toISOString(),
    build_id: buildId,
    precache: [] as { url: string; revision: string | null }[],
  };
  await copyDir(join(root, "static"), dist);
  const icons = await buildIcons(join(root, "static/favicon.svg"), dist);
  // Both entries' first loads: a share page may be the first page a visitor opens.
  const firstLoads = new Set([
    ...initialAssets(app.meta, app.entry, "client/i18n/catalogue_"),
    ...initialAssets(share.meta, share.entry, "client/share/texts_"),
  ]);
  manifest.precache = [
    ...[...firstLoads].map((p) => ({ url: url(p), revision: null })),
    ...[...icons, "/favicon.svg", APP_SHELL_PATH, OFFLINE_PATH].map((u) => ({
      url: u,
      revision: buildId,
    })),
  ];
  await buildServiceWorker(common, manifest.precache, buildId);
  // The command-line client the server serves at /cli.ts.
  await buildCli(join(dist, "cli.ts"));
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
