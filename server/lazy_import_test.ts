import assert from "node:assert/strict";
import { join } from "node:path";
import { LAZY_MODULES, lazyImport } from "./lazy_import.ts";

const ROOT = join(import.meta.dirname!, "..");

Deno.test("every lazily imported module loads, and the bundles' start imports it", async () => {
  // The single binary and the bundled server are bundles: only a literal import() in their
  // start (bundle_start.ts) puts the module in them.
  const entry = await Deno.readTextFile(join(ROOT, "bundle_start.ts"));
  for (const module of LAZY_MODULES) {
    assert.ok(
      entry.includes(`"${module}": () => import("./${module}")`),
      `bundle_start.ts registers a literal import of ${module}`,
    );
    const loaded = await lazyImport<Record<string, unknown>>(module);
    assert.ok(Object.keys(loaded).length > 0, `${module} exports something`);
  }
});

Deno.test("no literal dynamic import is left in the server's start-up code", async () => {
  // A literal `import("…")` puts the module's whole graph in memory at start (lazy_import.ts).
  const found: string[] = [];
  for (const dir of ["server", "shared"]) {
    for await (const file of walk(join(ROOT, dir))) {
      const rel = file.slice(ROOT.length + 1);
      if (/_test\.tsx?$/.test(rel)) continue;
      const text = await Deno.readTextFile(file);
      // A call, not a type (`typeof import("…")`, `as import("…")`) or a comment.
      if (/(?:await|return|[=(,[])\s*import\(\s*["'`]/.test(text)) found.push(rel);
    }
  }
  assert.deepEqual(found, []);
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* walk(path);
    else if (/\.tsx?$/.test(e.name)) yield path;
  }
}
