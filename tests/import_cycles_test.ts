// The server's import graph has no circles, the lower layers never import the HTTP side, and the
// shared layers (services/, kv/, storage/) never import a domain folder.
// Every relative specifier counts: static `import`/`export … from`, `import type` (a type-only
// circle still ties two modules together) and dynamic `import("…")`.
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SERVER = join(ROOT, "server");

const SPECIFIER =
  /(?:\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*)["']([^"']+)["']/g;

/** Lists every .ts/.tsx file under a folder, as absolute paths. */
async function listSources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await listSources(path));
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/** Strips comments so commented-out imports do not count. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/[^\n]*/g, "$1");
}

/** Builds the graph of relative imports between server modules, keyed by repo-relative path. */
async function buildGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await listSources(SERVER)) {
    const source = stripComments(await Deno.readTextFile(file));
    const targets = new Set<string>();
    for (const match of source.matchAll(SPECIFIER)) {
      const spec = match[1];
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(SERVER + "/")) continue;
      targets.add(relative(ROOT, target));
    }
    graph.set(relative(ROOT, file), [...targets].sort());
  }
  return graph;
}

/** Finds every strongly connected component with more than one module (or a self-import). */
function findCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return components;
}

/**
 * Shows one shortest circle through a component as `a -> b -> … -> a`, and names the component's
 * other modules, so each knot is reported once with a path to start from.
 */
function describeCycle(graph: Map<string, string[]>, component: string[]): string {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        const circle = [...path, start].join(" -> ");
        const others = component.filter((m) => !path.includes(m));
        return others.length ? `${circle} (same knot: ${others.join(", ")})` : circle;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return component.join(", ");
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
