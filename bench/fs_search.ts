/** The search half of bench/fs.ts: index generated names, then time queries of each class. */
import { join } from "node:path";
import type { IndexedObject } from "../server/search/search_repo.ts";
import { adminAuth } from "../server/services/auth.ts";
import { makeName, makeQueries, pad } from "./fs_names.ts";
import { type BenchApp, createMount, createStorage } from "./fs_listing.ts";
import { median, percentile, timed } from "./timing.ts";

/** Indexes NAMES generated names, then times QUERIES searches over HTTP and the service. */
export async function benchSearch(
  app: BenchApp,
  { names: NAMES, queries: QUERIES }: { names: number; queries: number },
) {
  const { t, base, admin } = app;
  const cfg = await createStorage(app, "bench-search");
  const mountId = await createMount(app, "/s", cfg, 300);
  const repo = t.services.search.repo;
  const kvBytes = async () => {
    let n = 0;
    for (const f of ["cubby.kv", "cubby.kv-wal"]) {
      n += (await Deno.stat(join(t.dir, f)).catch(() => ({ size: 0 }))).size;
    }
    return n;
  };
  const bytesBefore = await kvBytes();
  const names: string[] = [];
  const t0 = performance.now();
  let batch: IndexedObject[] = [];
  const now = Date.now();
  for (let i = 0; i < NAMES; i++) {
    const name = makeName(i);
    names.push(name);
    const key = `dept-${pad(i % 20, 2)}/project-${pad(Math.floor(i / 20) % 50, 2)}/${name}`;
    batch.push({
      key,
      entry: {
        type: "file",
        size: 1024 + i,
        modified: new Date(now).toISOString(),
        indexed_at: now,
      },
    });
    if (batch.length === 5000) {
      await repo.put(cfg, batch);
      batch = [];
    }
  }
  // The folders, as a rebuild would see them.
  for (let d = 0; d < 20; d++) {
    batch.push({ key: `dept-${pad(d, 2)}`, entry: folder(now) });
    for (let p = 0; p < 50; p++) {
      batch.push({ key: `dept-${pad(d, 2)}/project-${pad(p, 2)}`, entry: folder(now) });
    }
  }
  await repo.put(cfg, batch);
  const indexSeconds = (performance.now() - t0) / 1000;
  const indexBytes = await kvBytes() - bytesBefore;

  const classes = makeQueries(names, QUERIES);
  const cache = t.services.caches.search;
  const rows = [];
  const all = { http: [] as number[], direct: [] as number[], cached: [] as number[] };
  for (const cls of classes) {
    const http: number[] = [];
    const direct: number[] = [];
    const totals: number[] = [];
    for (const q of cls.queries) {
      cache.clear();
      http.push(
        await timed(async () => {
          const res = await fetch(`${base}/api/fs/search?${new URLSearchParams({ q })}`, {
            headers: { authorization: admin },
          });
          const body = await res.json();
          if (!body.success) throw new Error(`search: ${JSON.stringify(body)}`);
          totals.push(body.data.total);
        }),
      );
      cache.clear();
      direct.push(
        await timed(() =>
          t.services.search.search(
            { q, scope: "mount", mountId, limit: 50, offset: 0 },
            adminAuth(),
          )
        ),
      );
      all.cached.push(
        await timed(() =>
          t.services.search.search(
            { q, scope: "mount", mountId, limit: 50, offset: 0 },
            adminAuth(),
          )
        ),
      );
    }
    all.http.push(...http);
    all.direct.push(...direct);
    const h = [...http].sort((a, b) => a - b);
    const d = [...direct].sort((a, b) => a - b);
    rows.push({
      name: cls.name,
      n: cls.queries.length,
      matches: median(totals),
      http: [percentile(h, 50), percentile(h, 95)],
      direct: [percentile(d, 50), percentile(d, 95)],
    });
  }
  const h = all.http.sort((a, b) => a - b);
  const d = all.direct.sort((a, b) => a - b);
  const c = all.cached.sort((a, b) => a - b);
  return {
    indexSeconds,
    indexBytes,
    rows,
    overall: {
      http: [percentile(h, 50), percentile(h, 95)],
      direct: [percentile(d, 50), percentile(d, 95)],
      cached: [percentile(c, 50), percentile(c, 95)],
    },
  };
}

function folder(now: number) {
  return { type: "directory" as const, size: 0, modified: null, indexed_at: now };
}
