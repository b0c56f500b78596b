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
import { cpus } from "node:os";
import { createTestApp } from "../tests/helpers/app.ts";
import { benchListing } from "./fs_listing.ts";
import { benchSearch } from "./fs_search.ts";
import { writeReadmeSection } from "./readme_section.ts";
import { ms } from "./timing.ts";
import { benchArgs } from "./args.ts";

const opts = benchArgs({
  numbers: { files: 10000, names: 100000, queries: 200, runs: 5 },
  flags: ["no-write"],
});
const FILES = opts.files;
const NAMES = opts.names;
const QUERIES = opts.queries;
const RUNS = opts.runs;
async function main() {
  const loadAtStart = Deno.loadavg()[0];
  const t = await createTestApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => t.app.fetch(req, info),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const app = { t, base, admin: await t.adminAuth() };
    console.log(`listing ${FILES} objects, ${RUNS} runs…`);
    const listing = await benchListing(app, { files: FILES, runs: RUNS });
    console.log(`indexing ${NAMES} names, then ${QUERIES} queries…`);
    const search = await benchSearch(app, { names: NAMES, queries: QUERIES });
    const text = report(listing, search, loadAtStart);
    console.log(text);
    if (!opts["no-write"]) {
      await writeReadmeSection("fs", text);
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
