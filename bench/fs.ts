/**
 * Mount listing and search, measured on the real services (temporary KV file and data dir from
 * tests/helpers/app.ts) with the app served over loopback HTTP in this process:
 * - listing every page of a 10,000-object folder through `GET /api/fs/list` (an uncached mount,
 *   and a cached one on its second pass) against the local driver's `list` straight;
 * - 200 searches of mixed selectivity over 100,000 indexed names, through `GET /api/fs/search`
 *   and through SearchService directly, with the search cache cleared before every query.
 * Writes the section between the bench:fs markers of bench/README.md.
 *
 *   deno run -A bench/fs.ts [--files=10000] [--names=100000] [--queries=200] [--runs=5]
 *                           [--no-write]
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { cpus } from "node:os";
import { createTestApp, type TestApp } from "../tests/helpers/app.ts";
import type { IndexedObject } from "../server/search/search_repo.ts";
import type { Auth } from "../server/services/auth.ts";
import { ALL_PERMISSIONS } from "../shared/permissions.ts";

const { values: opts } = parseArgs({
  args: Deno.args,
  options: {
    files: { type: "string", default: "10000" },
    names: { type: "string", default: "100000" },
    queries: { type: "string", default: "200" },
    runs: { type: "string", default: "5" },
    "no-write": { type: "boolean", default: false },
  },
});
const FILES = Number(opts.files);
const NAMES = Number(opts.names);
const QUERIES = Number(opts.queries);
const RUNS = Number(opts.runs);
const README = join(import.meta.dirname!, "README.md");
const START = "<!-- bench:fs:start -->";
const END = "<!-- bench:fs:end -->";
const ADMIN_AUTH: Auth = {
  type: "admin",
  id: "admin",
  username: "admin",
  tokenHash: "",
  permissions: ALL_PERMISSIONS,
  basicPath: "/",
};

/** A seeded PRNG (mulberry32), so every run indexes the same names. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const pad = (n: number, w: number) => String(n).padStart(w, "0");

const WORDS = [
  "invoice",
  "report",
  "budget",
  "holiday",
  "meeting",
  "draft",
  "final",
  "summary",
  "contract",
  "design",
  "backup",
  "archive",
  "project",
  "notes",
  "scan",
  "receipt",
  "photo",
  "video",
  "presentation",
  "schedule",
  "minutes",
  "proposal",
  "roadmap",
  "release",
  "customer",
  "vendor",
  "payroll",
  "audit",
  "inventory",
  "manual",
  "guide",
  "lecture",
  "thesis",
  "chapter",
  "sketch",
  "mockup",
  "export",
  "import",
  "statement",
  "quarterly",
  "annual",
  "weekly",
  "daily",
  "review",
  "feedback",
  "survey",
  "template",
  "checklist",
  "diagram",
  "letter",
] as const;
const CJK = [
  "会议",
  "纪要",
  "报告",
  "合同",
  "发票",
  "预算",
  "照片",
  "视频",
  "项目",
  "设计",
  "备份",
  "归档",
  "总结",
  "计划",
  "通知",
  "简历",
  "论文",
  "手册",
  "清单",
  "草稿",
  "年度",
  "季度",
  "客户",
  "财务",
] as const;
const EXTS = ["pdf", "docx", "xlsx", "jpg", "png", "txt", "md", "zip", "mp4", "pptx"] as const;

/** One generated name: camera files, word names, CJK names and names with a random token. */
function makeName(i: number): string {
  const r = rand();
  if (r < 0.3) {
    const d = 20190101 + Math.floor(rand() * 6) * 10000 + Math.floor(rand() * 12) * 100 +
      Math.floor(rand() * 28);
    return `IMG_${d}_${pad(Math.floor(rand() * 240000), 6)}.jpg`;
  }
  if (r < 0.7) return `${pick(WORDS)}-${pick(WORDS)}-${pad(i % 1000, 3)}.${pick(EXTS)}`;
  if (r < 0.9) return `${pick(CJK)}${pick(CJK)}_${2019 + (i % 6)}.${pick(EXTS)}`;
  return `${pick(WORDS)}_${Math.floor(rand() * 0xffffffff).toString(16).padStart(8, "0")}.${
    pick(EXTS)
  }`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const ms = (x: number) => x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);

async function createStorage(t: TestApp, admin: string, name: string): Promise<string> {
  const res = await t.request("/api/s3-configs", {
    method: "POST",
    auth: admin,
    json: { name, provider_type: "local", root_dir: join(t.dir, name) },
  });
  return (await res.json()).data.id;
}

async function createMount(
  t: TestApp,
  admin: string,
  path: string,
  cfg: string,
  cacheTtl: number,
): Promise<string> {
  const res = await t.request("/api/mount/create", {
    method: "POST",
    auth: admin,
    json: {
      name: path.slice(1),
      mount_path: path,
      storage_type: "local",
      storage_config_id: cfg,
      cache_ttl: cacheTtl,
    },
  });
  const body = await res.json();
  if (!body.success) throw new Error(`mount: ${JSON.stringify(body)}`);
  return body.data.id;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Lists every page of `path` over HTTP; returns the number of entries. */
async function listOverHttp(base: string, admin: string, path: string): Promise<number> {
  let n = 0;
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams({ path, limit: "1000" });
    if (cursor) qs.set("cursor", cursor);
    const res = await fetch(`${base}/api/fs/list?${qs}`, { headers: { authorization: admin } });
    const body = await res.json();
    if (!body.success) throw new Error(`list: ${JSON.stringify(body)}`);
    n += body.data.items.length;
    cursor = body.data.cursor;
  } while (cursor);
  return n;
}

async function benchListing(t: TestApp, base: string, admin: string) {
  const cfg = await createStorage(t, admin, "bench-list");
  await createMount(t, admin, "/big", cfg, 0);
  await createMount(t, admin, "/big-cached", cfg, 300);
  const dir = join(t.dir, "bench-list", "folder");
  await Deno.mkdir(dir, { recursive: true });
  const bytes = new TextEncoder().encode("sixteen bytes...");
  for (let i = 0; i < FILES; i += 500) {
    await Promise.all(
      Array.from(
        { length: Math.min(500, FILES - i) },
        (_, j) => Deno.writeFile(join(dir, `file-${pad(i + j, 6)}.bin`), bytes),
      ),
    );
  }
  const driver = await t.services.storageConfigs.driverFor(
    await t.services.storageConfigs.getRecord(cfg),
  );
  const direct = async () => {
    let n = 0;
    let cursor: string | null = null;
    do {
      const page = await driver.list("folder/", { delimiter: "/", cursor, limit: 1000 });
      n += page.items.length + page.prefixes.length;
      cursor = page.cursor;
    } while (cursor);
    if (n !== FILES) throw new Error(`driver listed ${n}`);
  };
  const api = (path: string) => async () => {
    const n = await listOverHttp(base, admin, path);
    if (n !== FILES) throw new Error(`api listed ${n}`);
  };
  const rows: { label: string; times: number[] }[] = [
    { label: "Local driver `list` (direct, 1,000 per page)", times: [] },
    { label: "`GET /api/fs/list`, mount cache TTL 0 (uncached)", times: [] },
    { label: "`GET /api/fs/list`, mount cache TTL 300 s, warm cache", times: [] },
  ];
  await direct();
  await api("/big/folder")();
  await api("/big-cached/folder")(); // fills the directory cache
  for (let r = 0; r < RUNS; r++) {
    rows[0].times.push(await timed(direct));
    rows[1].times.push(await timed(api("/big/folder")));
    rows[2].times.push(await timed(api("/big-cached/folder")));
  }
  return rows.map((row) => ({
    label: row.label,
    median: median(row.times),
    min: Math.min(...row.times),
  }));
}

type QueryClass = { name: string; queries: string[] };

function makeQueries(names: string[]): QueryClass[] {
  const per = Math.max(1, Math.floor(QUERIES / 5));
  const tokens = names.filter((n) => /_[0-9a-f]{8}\./.test(n));
  const rare = Array.from({ length: per }, () => pick(tokens).match(/_([0-9a-f]{8})\./)![1]);
  const camera = Array.from({ length: per }, () => {
    const n = pick(names.filter((n) => n.startsWith("IMG_")));
    return n.slice(4, 4 + 8 + 1 + 3); // e.g. 20210415_123: a day and an hour-ish
  });
  const word = Array.from({ length: per }, () => `${pick(WORDS)}-${pick(WORDS)}`);
  const common = Array.from(
    { length: per },
    (_, i) => [pick(WORDS), ".jpg", "img_", `.${pick(EXTS)}`][i % 4],
  );
  const short = Array.from(
    { length: QUERIES - 4 * per },
    (_, i) => i % 2 ? pick(CJK) : `${pick([..."bcdfghlmnprst"])}${pick([..."aeiou"])}`,
  );
  return [
    { name: "rare token (8 hex chars)", queries: rare },
    { name: "camera date and time prefix", queries: camera },
    { name: "two words", queries: word },
    { name: "one word or extension", queries: common },
    { name: "2 characters (bigram; half CJK)", queries: short },
  ];
}

async function benchSearch(t: TestApp, base: string, admin: string) {
  const cfg = await createStorage(t, admin, "bench-search");
  const mountId = await createMount(t, admin, "/s", cfg, 300);
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

  const classes = makeQueries(names);
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
            ADMIN_AUTH,
          )
        ),
      );
      all.cached.push(
        await timed(() =>
          t.services.search.search(
            { q, scope: "mount", mountId, limit: 50, offset: 0 },
            ADMIN_AUTH,
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

/** Formats Markdown as `deno fmt` would in this repository (tables aligned, lines wrapped). */
async function formatMarkdown(text: string): Promise<string> {
  const fmt = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    cwd: join(import.meta.dirname!, ".."),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = fmt.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await fmt.output();
  return out.success ? new TextDecoder().decode(out.stdout) : text;
}

/** Replaces what lies between this bench's markers in bench/README.md, and nothing else. */
async function writeSection(text: string): Promise<void> {
  const readme = await Deno.readTextFile(README);
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`README.md lacks the ${START} markers`);
  await Deno.writeTextFile(
    README,
    `${readme.slice(0, start + START.length)}\n\n${text}\n${readme.slice(end)}`,
  );
}

async function main() {
  const loadAtStart = Deno.loadavg()[0];
  const t = await createTestApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => t.app.fetch(req, info),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const admin = await t.adminAuth();
    console.log(`listing ${FILES} objects, ${RUNS} runs…`);
    const listing = await benchListing(t, base, admin);
    console.log(`indexing ${NAMES} names, then ${QUERIES} queries…`);
    const search = await benchSearch(t, base, admin);
    const text = report(listing, search, loadAtStart);
    console.log(text);
    if (!opts["no-write"]) {
      await writeSection(await formatMarkdown(text));
      console.log("bench/README.md updated");
    }
  } finally {
    await server.shutdown();
    await t.close();
  }
}

function report(
  listing: Awaited<ReturnType<typeof benchListing>>,
  search: Awaited<ReturnType<typeof benchSearch>>,
  loadAtStart: number,
): string {
  const cpu = cpus()[0]?.model?.trim() ?? "unknown CPU";
  const day = new Date().toISOString().slice(0, 10);
  const n = (x: number) => x.toLocaleString("en-US");
  const perName = search.indexBytes / NAMES;
  const common = search.rows.find((r) => r.name.startsWith("one word"))!;
  const lines = [
    "## Mount listing and search",
    "",
    "`deno run -A bench/fs.ts` (`--files`, `--names`, `--queries`, `--runs`, `--no-write`)",
    "builds the real services on a temporary KV file and data directory (`tests/helpers/app.ts`)",
    "and serves the app with `Deno.serve` on 127.0.0.1 in the same process; HTTP rows are `fetch`",
    "calls over loopback with an admin token.",
    "",
    `- **Listing**: ${n(FILES)} files of 16 bytes are written straight into one folder of a local`,
    "  storage. Every page (1,000 entries each) is read through `GET /api/fs/list` on a mount with",
    "  cache TTL 0, and on a mount of the same storage with TTL 300 s after one pass has filled the",
    "  directory cache, against `LocalDriver.list` with the same page size in the same process.",
    `  Median and best of ${RUNS} runs after one warm-up.`,
    `- **Search**: ${n(NAMES)} generated names (camera files, word names, CJK names, names with a`,
    "  random hex token; 1,000 folders) are written to the index through `SearchRepo.put` in",
    `  batches of 5,000. Then ${QUERIES} queries in five classes of selectivity each run through`,
    "  `GET /api/fs/search` (global scope) and through `SearchService.search` (mount scope), with",
    '  the search cache cleared before each; "cached" repeats each query with the cache warm. The',
    '  result page is 50 items; "matches" is the median `total`.',
    "",
    `Measured ${day} on ${cpus().length} cores (${cpu}), Deno ${Deno.version.deno}, ${Deno.build.os};`,
    `1-minute load average ${loadAtStart.toFixed(2)} at the start and ${
      Deno.loadavg()[0].toFixed(2)
    } at the end (the machine was shared with other work).`,
    "",
    `| Listing ${n(FILES)} objects (all pages) | Median | Best | Median vs driver |`,
    "| --- | ---: | ---: | ---: |",
    ...listing.map((r) =>
      `| ${r.label} | ${ms(r.median)} ms | ${ms(r.min)} ms | ${
        (r.median / listing[0].median).toFixed(2)
      }× |`
    ),
    "",
    `Indexing ${n(NAMES)} names took ${search.indexSeconds.toFixed(1)} s (${
      n(Math.round(NAMES / search.indexSeconds))
    } names/s); the KV file and its WAL grew by ${(search.indexBytes / 2 ** 20).toFixed(0)} MiB,`,
    `${n(Math.round(perName))} bytes per name.`,
    "",
    "| Query class | Queries | Matches (median) | HTTP p50 | HTTP p95 | Service p50 | Service p95 |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...search.rows.map((r) =>
      `| ${r.name} | ${r.n} | ${n(r.matches)} | ${ms(r.http[0])} ms | ${ms(r.http[1])} ms | ${
        ms(r.direct[0])
      } ms | ${ms(r.direct[1])} ms |`
    ),
    `| **All ${QUERIES}** | ${QUERIES} | | **${ms(search.overall.http[0])} ms** | ${
      ms(search.overall.http[1])
    } ms | **${ms(search.overall.direct[0])} ms** | ${ms(search.overall.direct[1])} ms |`,
    `| All, cached (service) | ${QUERIES} | | | | ${ms(search.overall.cached[0])} ms | ${
      ms(search.overall.cached[1])
    } ms |`,
    "",
    "Reading the numbers: a query reads the postings of the rarest of up to six of its trigrams and",
    "checks each candidate's name, so its cost follows how many names hold that trigram, not how",
    "many names there are. Queries that match a large share of the names pay for counting every",
    `match in \`total\` (${n(common.matches)} matches: ${
      ms(common.direct[0])
    } ms). The index costs`,
    `about ${n(Math.round(perName / 100) * 100)} bytes of KV per name, one row per character of`,
    "the name, so a rebuild of a large storage takes minutes and the KV file grows with it. The",
    "uncached listing is bound by the driver; the API adds auth, path checks and the JSON envelope.",
  ];
  return lines.join("\n") + "\n";
}

await main();
