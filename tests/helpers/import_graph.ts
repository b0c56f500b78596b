/**
 * The import graph of a folder of the repository, for the tests that hold its layering
 * (tests/import_cycles_test.ts for server/, tests/client_imports_test.ts for client/). Every
 * relative specifier counts: static `import`/`export … from`, `import type` (a type-only circle
 * still ties two modules together) and dynamic `import("…")`.
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** A relative or bare specifier of an import, re-export or dynamic import (group 1). */
export const SPECIFIER =
  /(?:\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*)["']([^"']+)["']/g;

/** Lists every .ts/.tsx file under a folder, as absolute paths. */
export async function listSources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await listSources(path));
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/** Strips comments so commented-out imports do not count. */
export function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/[^\n]*/g, "$1");
}

/**
 * Builds the graph of relative imports of the modules under `folder` (repository-relative, e.g.
 * "server"), keyed by repository-relative path; a target may lie outside the folder.
 */
export async function buildGraph(folder: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await listSources(join(ROOT, folder))) {
    const source = stripComments(await Deno.readTextFile(file));
    const targets = new Set<string>();
    for (const match of source.matchAll(SPECIFIER)) {
      const spec = match[1];
      if (!spec.startsWith(".")) continue;
      targets.add(relative(ROOT, resolve(dirname(file), spec)));
    }
    graph.set(relative(ROOT, file), [...targets].sort());
  }
  return graph;
}

/** Finds every strongly connected component with more than one module (or a self-import). */
export function findCycles(graph: Map<string, string[]>): string[][] {
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
export function describeCycle(graph: Map<string, string[]>, component: string[]): string {
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
