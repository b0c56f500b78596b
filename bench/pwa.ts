/**
 * Sizes of the installable app, measured against the real server (main.ts, a temporary data
 * dir) and the built dist/: the service worker's precache (every entry fetched as the worker
 * would, raw and gzip), and the JavaScript a share page loads before any interaction (every
 * script response Chromium receives while opening an open paste, with the service worker
 * blocked so all of it comes from the network), raw and gzip: all of it until the network is
 * idle, and the part the page needs before it hydrates (the precache list's scripts it loaded). Prints a Markdown table.
 *
 *   deno task build && deno run -A bench/pwa.ts
 */
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { findRepoRoot, loginAdmin, startServer } from "../tests/helpers/server.ts";
import { CHROMIUM_LAUNCH_OPTIONS } from "../tests/helpers/browser.ts";

/** The gzip size of some bytes (CompressionStream's gzip, as a server's default level). */
async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

const root = findRepoRoot();
const built = JSON.parse(await Deno.readTextFile(join(root, "dist/manifest.json")));
const precache = built.precache as { url: string }[];
if (!precache?.length) throw new Error("dist/manifest.json has no precache list: run the build");

const server = await startServer();
try {
  let raw = 0;
  let gz = 0;
  for (const { url } of precache) {
    const res = await fetch(server.url + url);
    if (!res.ok) throw new Error(`precache entry ${url}: ${res.status}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    raw += bytes.byteLength;
    gz += await gzipSize(bytes);
  }

  const token = await loginAdmin(server);
  const created = await fetch(`${server.url}/api/paste`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ content: "# Hello\n\nA share page for measuring." }),
  });
  const slug = (await created.json()).data.slug as string;

  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const scripts: Promise<{ path: string; bytes: Uint8Array }>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") {
      const path = new URL(res.url()).pathname;
      scripts.push(res.body().then((b) => ({ path, bytes: new Uint8Array(b) })));
    }
  });
  await page.goto(`${server.url}/paste/${slug}`, { waitUntil: "networkidle" });
  const bodies = await Promise.all(scripts);
  await browser.close();
  // Before hydration: the scripts of the precache list (the entry, its static imports, the
  // language chunks) that the page loaded; the rest are dynamic imports made after it.
  const first = new Set(precache.map((p) => p.url));
  const sizes = { all: { n: 0, raw: 0, gz: 0 }, first: { n: 0, raw: 0, gz: 0 } };
  for (const { path, bytes } of bodies) {
    const gzip = await gzipSize(bytes);
    for (const s of first.has(path) ? [sizes.all, sizes.first] : [sizes.all]) {
      s.n++;
      s.raw += bytes.byteLength;
      s.gz += gzip;
    }
  }

  console.log(`Measured ${new Date().toISOString().slice(0, 10)}, build ${built.build_id}.\n`);
  console.log("| What | Files | Raw | Gzip |");
  console.log("| --- | ---: | ---: | ---: |");
  console.log(`| Service worker precache | ${precache.length} | ${kB(raw)} | ${kB(gz)} |`);
  const { all, first: hydrate } = sizes;
  console.log(
    `| Share page JavaScript before hydration | ${hydrate.n} | ${kB(hydrate.raw)} | ${
      kB(hydrate.gz)
    } |`,
  );
  console.log(
    `| Share page JavaScript until network idle | ${all.n} | ${kB(all.raw)} | ${kB(all.gz)} |`,
  );
} finally {
  await server.stop();
}
