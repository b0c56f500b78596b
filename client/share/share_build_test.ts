/**
 * The share pages' bundle, checked on a real build (scripts/build.ts into a temporary
 * directory): its first load stays within issue 10's budget, it carries none of what it was
 * split from, and every text its modules name is in the share texts. A size budget is a build
 * check, so it lives with the tests rather than the benchmarks.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import type { Metafile } from "esbuild";
import { LANGUAGES } from "../../shared/constants.ts";
import { resourceFor } from "../i18n/mod.ts";
import { pickShareTexts } from "./texts.ts";

/** Issue 10: a share page's JavaScript before hydration, gzip. */
const BUDGET_BYTES = 80 * 1024;

const root = resolve(import.meta.dirname!, "../..");

type Manifest = {
  js: string;
  share: { js: string; languages: Record<string, string>; first_load: Record<string, string[]> };
  precache: { url: string }[];
};

/** Builds the client into a temporary directory once; returns it with its manifest. */
const built = (async () => {
  const dist = await Deno.makeTempDir({ prefix: "cubby-share-build-" });
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/build.ts", "--metafile"],
    cwd: root,
    env: { CUBBY_DIST_DIR: dist },
    stdin: "null",
  }).output();
  if (!out.success) throw new Error(`build failed: ${new TextDecoder().decode(out.stderr)}`);
  const manifest = JSON.parse(await Deno.readTextFile(join(dist, "manifest.json"))) as Manifest;
  const meta = JSON.parse(await Deno.readTextFile(join(dist, "metafile-share.json"))) as Metafile;
  globalThis.addEventListener("unload", () => Deno.removeSync(dist, { recursive: true }));
  return { dist, manifest, meta };
})();

/** The gzip size of a file (CompressionStream's gzip, as bench/pwa.ts measures). */
async function gzipSize(path: string): Promise<number> {
  const stream = (await Deno.open(path)).readable.pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** The esbuild output path (as in the metafile) of a URL under /assets/. */
function outputOf(meta: Metafile, url: string): string {
  const out = Object.keys(meta.outputs).find((o) => o.endsWith(url));
  if (!out) throw new Error(`no output for ${url}`);
  return out;
}

Deno.test("a share page's scripts before hydration stay within 80 kB gzip, in each language", async () => {
  const { dist, manifest } = await built;
  for (const lang of LANGUAGES) {
    const files = manifest.share.first_load[lang];
    assert.ok(files?.includes(manifest.share.js), `${lang}: the entry is in the first load`);
    assert.ok(files.includes(manifest.share.languages[lang]), `${lang}: its texts are too`);
    let total = 0;
    for (const f of files) total += await gzipSize(join(dist, f));
    assert.ok(
      total <= BUDGET_BYTES,
      `${lang}: ${(total / 1024).toFixed(1)} kB gzip before hydration, budget 80 kB`,
    );
  }
});

Deno.test("the share bundle's first load has no React DOM, router, full catalogue or both languages' errors", async () => {
  const { manifest, meta } = await built;
  for (const lang of LANGUAGES) {
    const inputs = manifest.share.first_load[lang].flatMap((url) =>
      Object.keys(meta.outputs[outputOf(meta, url)].inputs)
    );
    const forbidden = inputs.filter((i) =>
      /node_modules\/.*\/(react-dom|react-router)\//.test(i) ||
      /node_modules\/.*\/react\/cjs\//.test(i) ||
      /client\/i18n\/(catalogue_[a-z_]+|catalogues|browser)\.ts$/.test(i) ||
      /client\/i18n\/locales\//.test(i) ||
      /shared\/errors\.ts$/.test(i)
    );
    assert.deepEqual(forbidden, [], lang);
    assert.ok(inputs.some((i) => /node_modules\/.*\/preact\//.test(i)), "Preact hydrates");
  }
});

Deno.test("the service worker precaches both entries' first loads", async () => {
  const { manifest } = await built;
  const precached = new Set(manifest.precache.map((p) => p.url));
  for (const files of Object.values(manifest.share.first_load)) {
    for (const f of files) assert.ok(precached.has(f), `${f} is precached`);
  }
  assert.ok(precached.has(manifest.js), "the app entry is precached");
});

Deno.test("the offline store both entries open as they start is precached", async () => {
  const { dist, manifest } = await built;
  const precached = new Set(manifest.precache.map((p) => p.url));
  for (const name of ["main", "share"]) {
    const meta = JSON.parse(
      await Deno.readTextFile(join(dist, `metafile-${name}.json`)),
    ) as Metafile;
    const outputs = Object.entries(meta.outputs);
    const db = outputs.find(([, o]) => o.entryPoint === "client/offline/db.ts");
    assert.ok(db, `${name}: the offline store is a lazy chunk`);
    const url = (path: string) => "/" + path.split("/").slice(-2).join("/");
    assert.ok(precached.has(url(db[0])), `${name}: ${db[0]} is precached`);
    for (const i of db[1].imports) {
      assert.ok(precached.has(url(i.path)), `${name}: ${i.path}, which it imports, is precached`);
    }
  }
});

/** Every dotted path of a resource's string leaves. */
function textPaths(resource: Record<string, unknown>, prefix = ""): Set<string> {
  const paths = new Set<string>();
  for (const [key, value] of Object.entries(resource)) {
    const path = prefix + key;
    if (value && typeof value === "object") {
      for (const p of textPaths(value as Record<string, unknown>, `${path}.`)) paths.add(p);
    } else paths.add(path);
  }
  return paths;
}

/**
 * Modules of the share bundle whose texts a share page never shows, with the reason: the
 * layout imports only loginPathFor from the admin modules table, not its menu labels.
 */
const TEXTS_NOT_SHOWN = new Set(["client/auth/admin_modules.ts"]);

Deno.test("every text a share module names is in the share texts of each language", async () => {
  const { meta } = await built;
  const sources = new Set<string>();
  for (const out of Object.values(meta.outputs)) {
    for (const input of Object.keys(out.inputs)) {
      if (/^(client|shared)\/.*\.tsx?$/.test(input) && !TEXTS_NOT_SHOWN.has(input)) {
        sources.add(input);
      }
    }
  }
  assert.ok(sources.has("client/features/pastes/PastePage.tsx"), "the metafile lists sources");
  for (const lang of LANGUAGES) {
    const all = textPaths(resourceFor(lang));
    const kept = textPaths(pickShareTexts(resourceFor(lang)));
    const missing: string[] = [];
    for (const source of sources) {
      const code = await Deno.readTextFile(join(root, source));
      // A string literal that names a text of the app's catalogue (a key, or a plural's base).
      for (const [, key] of code.matchAll(/["'`]([a-zA-Z][\w-]*(?:\.[\w-]+)+)["'`]/g)) {
        const plural = [`${key}_one`, `${key}_other`];
        const isText = all.has(key) || plural.some((p) => all.has(p));
        const isKept = kept.has(key) || plural.some((p) => kept.has(p));
        if (isText && !isKept) missing.push(`${source}: ${key}`);
      }
    }
    assert.deepEqual(missing, [], `${lang}: texts missing from client/share/texts.ts`);
  }
});
