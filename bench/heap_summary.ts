/**
 * Reads a V8 heap snapshot (bench/inspector.ts) the way DevTools' Memory tab does: the self size
 * of every node, the dominator tree (who alone keeps what alive, weak edges ignored) and each
 * node's retained size. Summarises it three ways: self size by kind of object, retained size of
 * the scripts (each module's source text, line ends and source map) by package or folder, and
 * the largest single retainers.
 */

type Snapshot = {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
};

/** One line of a summary: a name and a size in bytes. */
export type SizeRow = { name: string; bytes: number; count?: number };

/** What summariseHeap returns. */
export type HeapSummary = {
  totalBytes: number;
  byKind: SizeRow[];
  byScript: SizeRow[];
  topRetainers: SizeRow[];
};

/** The graph of a snapshot with dominators and retained sizes. */
class HeapGraph {
  readonly n: number;
  readonly type: Uint8Array;
  readonly name: Uint32Array;
  readonly self: Float64Array;
  readonly firstEdge: Uint32Array;
  readonly edgeTo: Uint32Array;
  readonly edgeType: Uint8Array;
  readonly edgeName: Uint32Array;
  readonly idom: Int32Array;
  readonly retained: Float64Array;

  constructor(readonly s: Snapshot) {
    const m = s.snapshot.meta;
    const nf = m.node_fields.length;
    const ef = m.edge_fields.length;
    const [iType, iName, iSelf, iEdges] = ["type", "name", "self_size", "edge_count"]
      .map((f) => m.node_fields.indexOf(f));
    const [eType, eName, eTo] = ["type", "name_or_index", "to_node"]
      .map((f) => m.edge_fields.indexOf(f));
    this.n = s.nodes.length / nf;
    this.type = new Uint8Array(this.n);
    this.name = new Uint32Array(this.n);
    this.self = new Float64Array(this.n);
    this.firstEdge = new Uint32Array(this.n + 1);
    for (let i = 0, e = 0; i < this.n; i++) {
      this.type[i] = s.nodes[i * nf + iType];
      this.name[i] = s.nodes[i * nf + iName];
      this.self[i] = s.nodes[i * nf + iSelf];
      this.firstEdge[i] = e;
      e += s.nodes[i * nf + iEdges];
      this.firstEdge[i + 1] = e;
    }
    const edges = s.edges.length / ef;
    this.edgeTo = new Uint32Array(edges);
    this.edgeType = new Uint8Array(edges);
    this.edgeName = new Uint32Array(edges);
    for (let e = 0; e < edges; e++) {
      this.edgeTo[e] = s.edges[e * ef + eTo] / nf;
      this.edgeType[e] = s.edges[e * ef + eType];
      this.edgeName[e] = s.edges[e * ef + eName];
    }
    this.idom = this.#dominators(m.edge_types[0].indexOf("weak"));
    this.retained = this.#retainedSizes();
  }

  nodeName(i: number): string {
    return this.s.strings[this.name[i]];
  }
  nodeType(i: number): string {
    return this.s.snapshot.meta.node_types[0][this.type[i]];
  }
  edgeTypeName(e: number): string {
    return this.s.snapshot.meta.edge_types[0][this.edgeType[e]];
  }

  /** Cooper, Harvey and Kennedy's iterative algorithm over a reverse postorder from node 0. */
  #dominators(weak: number): Int32Array {
    const { n, firstEdge, edgeTo, edgeType } = this;
    const order = new Int32Array(n).fill(-1); // postorder number
    const byOrder: number[] = [];
    const stack: number[] = [0];
    const next = new Uint32Array(n);
    order[0] = -2;
    for (let i = 0; i < n; i++) next[i] = firstEdge[i];
    while (stack.length) {
      const v = stack[stack.length - 1];
      let pushed = false;
      while (next[v] < firstEdge[v + 1]) {
        const e = next[v]++;
        const w = edgeTo[e];
        if (edgeType[e] === weak || order[w] !== -1) continue;
        order[w] = -2;
        stack.push(w);
        pushed = true;
        break;
      }
      if (!pushed) {
        stack.pop();
        order[v] = byOrder.length;
        byOrder.push(v);
      }
    }
    const preds: number[][] = Array.from({ length: n }, () => []);
    for (let v = 0; v < n; v++) {
      if (order[v] < 0) continue;
      for (let e = firstEdge[v]; e < firstEdge[v + 1]; e++) {
        if (edgeType[e] !== weak && order[edgeTo[e]] >= 0) preds[edgeTo[e]].push(v);
      }
    }
    const idom = new Int32Array(n).fill(-1);
    idom[0] = 0;
    const intersect = (a: number, b: number) => {
      while (a !== b) {
        while (order[a] < order[b]) a = idom[a];
        while (order[b] < order[a]) b = idom[b];
      }
      return a;
    };
    for (let changed = true; changed;) {
      changed = false;
      for (let k = byOrder.length - 2; k >= 0; k--) {
        const v = byOrder[k];
        let d = -1;
        for (const p of preds[v]) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
        if (d !== -1 && idom[v] !== d) {
          idom[v] = d;
          changed = true;
        }
      }
    }
    return idom;
  }

  #retainedSizes(): Float64Array {
    const retained = Float64Array.from(this.self);
    // Children come before their dominator in postorder; summing by depth avoids recursion.
    const depth = new Int32Array(this.n).fill(-1);
    depth[0] = 0;
    const depthOf = (v: number): number => {
      const chain: number[] = [];
      while (depth[v] === -1) {
        chain.push(v);
        v = this.idom[v];
        if (v === -1) return -1;
      }
      let d = depth[v];
      for (let i = chain.length - 1; i >= 0; i--) depth[chain[i]] = ++d;
      return d;
    };
    const nodes: number[] = [];
    for (let v = 1; v < this.n; v++) if (this.idom[v] !== -1 && depthOf(v) > 0) nodes.push(v);
    nodes.sort((a, b) => depth[b] - depth[a]);
    for (const v of nodes) retained[this.idom[v]] += retained[v];
    return retained;
  }
}

/** The kind of a node as DevTools groups it: its constructor, or a system group. */
function kindOf(g: HeapGraph, i: number): string {
  const t = g.nodeType(i);
  if (t === "object" || t === "native") return g.nodeName(i);
  if (t === "closure") return "(closure)";
  if (t.includes("string")) return "(string)";
  if (t === "code") return "(compiled code)";
  return `(${t})`;
}

/** How V8 names a Script (a module's source, line ends and source map URL): this, then the URL. */
const SCRIPT = "system / Script / ";

/** A module URL as a package name, or a path inside the repository. */
export function shortenUrl(url: string): string {
  const pkg = url.match(/node_modules\/\.deno\/([^/]+)\//) ??
    url.match(/npm\/[^/]+\/([^/]+\/[^/]+)\//);
  if (pkg) return `npm:${pkg[1].replace(/\+/g, "/")}`;
  const repo = url.match(/\/(server|shared|client)\/.*$/);
  if (repo) return repo[0].slice(1).replace(/\/[^/]+$/, "/");
  if (url.startsWith("ext:")) return "Deno runtime (ext:)";
  const bundled = url.match(/\/dist-server\/([^/]+)$/);
  if (bundled) return `dist-server/${bundled[1].replace(/-[A-Z0-9]{8}\.js$/, "-*.js")}`;
  return url || "(no URL)";
}

/** Summarises a heap snapshot's JSON; `top` rows in each list. */
export function summariseHeap(json: string, top = 12): HeapSummary {
  const g = new HeapGraph(JSON.parse(json));
  const byKind = new Map<string, SizeRow>();
  const byScript = new Map<string, SizeRow>();
  let totalBytes = 0;
  for (let i = 0; i < g.n; i++) {
    totalBytes += g.self[i];
    const kind = kindOf(g, i);
    const row = byKind.get(kind) ?? { name: kind, bytes: 0, count: 0 };
    row.bytes += g.self[i];
    row.count!++;
    byKind.set(kind, row);
    if (g.nodeName(i).startsWith(SCRIPT)) {
      const name = shortenUrl(g.nodeName(i).slice(SCRIPT.length));
      const s = byScript.get(name) ?? { name, bytes: 0, count: 0 };
      s.bytes += g.retained[i];
      s.count!++;
      byScript.set(name, s);
    }
  }
  // The largest retainers: nodes that retain much, each shown once (not its dominators too,
  // unless they retain clearly more than it).
  const candidates = [...Array(g.n).keys()].filter((i) => i > 0 && g.retained[i] >= 256 * 1024)
    .sort((a, b) => g.retained[b] - g.retained[a]);
  const topRetainers: SizeRow[] = [];
  const shown = new Set<number>();
  for (const i of candidates) {
    if (topRetainers.length >= top) break;
    if (g.nodeType(i) === "synthetic") continue;
    let d = g.idom[i];
    while (d > 0 && !shown.has(d)) d = g.idom[d];
    if (d > 0 && g.retained[d] - g.retained[i] < 256 * 1024) continue;
    shown.add(i);
    topRetainers.push({ name: describe(g, i), bytes: g.retained[i] });
  }
  const sorted = (m: Map<string, SizeRow>) =>
    [...m.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top);
  return { totalBytes, byKind: sorted(byKind), byScript: sorted(byScript), topRetainers };
}

/** A retainer as a readable line: its kind, its name, and the edge that holds it. */
function describe(g: HeapGraph, i: number): string {
  const d = g.idom[i];
  let via = "";
  for (let e = g.firstEdge[d]; e < g.firstEdge[d + 1]; e++) {
    if (g.edgeTo[e] !== i) continue;
    const t = g.edgeTypeName(e);
    via = t === "element" || t === "hidden" ? `[${g.edgeName[e]}]` : g.s.strings[g.edgeName[e]];
    break;
  }
  const name = g.nodeName(i).slice(0, 60);
  return `${kindOf(g, i)} ${name === kindOf(g, i) ? "" : `"${name}" `}(held as ${via} of ${
    g.nodeName(d).slice(0, 40)
  })`;
}
