// The server's import graph has no circles, no folder imports one above it (LAYERS), and only
// ssr/ imports client code.
// Every relative specifier counts: static `import`/`export … from`, `import type` (a type-only
// circle still ties two modules together) and dynamic `import("…")`.
import assert from "node:assert/strict";
import {
  buildGraph as buildFolderGraph,
  describeCycle,
  findCycles,
  SPECIFIER,
  stripComments,
} from "./helpers/import_graph.ts";

/** The graph of relative imports between server modules (targets outside server/ left out). */
async function buildGraph(): Promise<Map<string, string[]>> {
  const graph = await buildFolderGraph("server");
  for (const [file, targets] of graph) {
    graph.set(file, targets.filter((t) => t.startsWith("server/")));
  }
  return graph;
}

Deno.test("the import parser sees static, type-only, re-export and dynamic specifiers", () => {
  const source = stripComments(`
    import { a } from "./a.ts";
    import type { B } from "./b.ts";
    import "./c.ts";
    export { d } from "./d.ts";
    export * from "./e.ts";
    export type { F } from "./f.ts";
    const g = await import("./g.ts");
    // import { h } from "./h.ts";
    import {
      i,
      type I,
    } from "./i.ts";
  `);
  const found = [...source.matchAll(SPECIFIER)].map((m) => m[1]);
  assert.deepEqual(found, [
    "./a.ts",
    "./b.ts",
    "./c.ts",
    "./d.ts",
    "./e.ts",
    "./f.ts",
    "./g.ts",
    "./i.ts",
  ]);
});

Deno.test("the cycle finder reports a circle with its path", () => {
  const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
  const cycles = findCycles(graph);
  assert.deepEqual(cycles, [["a", "b", "c"]]);
  assert.deepEqual(describeCycle(graph, cycles[0]), "a -> b -> c -> a");
  const knot = new Map([["a", ["b", "c"]], ["b", ["a"]], ["c", ["a"]]]);
  assert.deepEqual(describeCycle(knot, findCycles(knot)[0]), "a -> b -> a (same knot: c)");
});

Deno.test("server/ has no import circles", async () => {
  const graph = await buildGraph();
  const cycles = findCycles(graph).map((component) => describeCycle(graph, component));
  assert.deepEqual(cycles, [], `import circles in server/:\n${cycles.join("\n")}`);
});

/**
 * The server's folders from the bottom up: a module imports its own folder and those below it,
 * never one above. The other modules at the top of server/ (errors, lazy imports, the React
 * build) sit below every folder.
 */
const LAYERS = [
  "lib",
  "config.ts",
  "kv",
  "storage",
  "services",
  "shares",
  "search",
  "fs",
  "backup",
  "webdav",
  "container.ts",
  "jobs",
  "http",
  "ssr",
  "routes",
  "app.ts",
];

/** The layer of a server module: its index in LAYERS, or -1 for the base modules. */
function layerOf(file: string): number {
  const [, first, rest] = file.match(/^server\/([^/]+)(\/.*)?$/) ?? [];
  const layer = LAYERS.indexOf(rest ? first : first.replace(/_test\.tsx?$/, ".ts"));
  if (rest && layer < 0) throw new Error(`server/${first}/ is in no layer of LAYERS`);
  return layer;
}

Deno.test("the layer table knows every folder and puts the base modules below all", () => {
  assert.equal(layerOf("server/lib/crypto.ts"), 0);
  assert.equal(layerOf("server/errors.ts"), -1);
  assert.equal(layerOf("server/config.ts"), 1);
  assert.equal(layerOf("server/routes/pages.ts"), LAYERS.indexOf("routes"));
  assert.throws(() => layerOf("server/newfolder/x.ts"), /in no layer/);
});

Deno.test("no server module imports a folder above its own (tests may reach any layer)", async () => {
  const graph = await buildGraph();
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    if (/_test\.tsx?$/.test(file)) continue;
    for (const target of targets) {
      if (layerOf(target) > layerOf(file)) violations.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(violations, [], `upward imports:\n${violations.join("\n")}`);
});

Deno.test("the server imports client code only from ssr/ (which renders the client's pages)", async () => {
  const graph = await buildFolderGraph("server");
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    if (file.startsWith("server/ssr/") || /_test\.tsx?$/.test(file)) continue;
    for (const target of targets) {
      if (target.startsWith("client/")) violations.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(violations, [], `client imports outside ssr/:\n${violations.join("\n")}`);
});
