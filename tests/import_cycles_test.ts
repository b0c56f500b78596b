// The server's import graph has no circles, the lower layers never import the HTTP side, and the
// shared layers (services/, kv/, storage/) never import a domain folder.
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

Deno.test("services, domain folders, kv and storage never import the HTTP side", async () => {
  const graph = await buildGraph();
  const lower = /^server\/(services|kv|storage|backup|fs|search|shares)\//;
  const upper = /^server\/(http|routes|webdav|ssr)\//;
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    if (!lower.test(file)) continue;
    for (const target of targets) if (upper.test(target)) violations.push(`${file} -> ${target}`);
  }
  assert.deepEqual(violations, [], `layering violations:\n${violations.join("\n")}`);
});

Deno.test("the shared layers never import a domain folder (services/mod.ts wires them)", async () => {
  const graph = await buildGraph();
  const shared = /^server\/(services|kv|storage)\//;
  const domain = /^server\/(backup|fs|search|shares|webdav)\//;
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    if (!shared.test(file) || file === "server/services/mod.ts") continue;
    for (const target of targets) if (domain.test(target)) violations.push(`${file} -> ${target}`);
  }
  assert.deepEqual(violations, [], `shared layer imports a domain:\n${violations.join("\n")}`);
});
