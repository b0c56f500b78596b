/**
 * Sizes of the installable app, measured against the real server (as `deno task start` runs it, a temporary data
 * dir) and the built dist/: the service worker's precache (every entry fetched as the worker
 * would, raw and gzip), and the JavaScript each kind of share page (an open paste, a text file
 * share) loads before any interaction, raw and gzip: the part it needs before it hydrates
 * (its entry's first-load list in dist/manifest.json), and all of it until the network is idle
 * (adding the lazy chunks: Dexie, the QR code, the file preview). Prints a Markdown table.
 *
 *   deno task build && deno task bench:pwa
 */
import { join } from "node:path";
import { type Browser, chromium } from "@playwright/test";
import { findRepoRoot, loginAdmin, startServer } from "../tests/helpers/server.ts";
import { CHROMIUM_LAUNCH_OPTIONS } from "../tests/helpers/browser.ts";
import { serveFromBundle } from "./server_entry.ts";

/** The gzip size of some bytes (CompressionStream's gzip, as a server's default level). */
async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

type Sizes = { n: number; raw: number; gz: number };

/**
 * The scripts a share page loads (en-US, service worker blocked so all of it comes from the
 * network): `all` until the network is idle, `first` the ones in the first-load list of the
 * page's entry (the entry, its static imports and the page language's texts), which it needs
 * before it hydrates. A build without that list (before the share entry) counts the scripts
 * of the precache list, which then held the one entry's first load.
 */
async function measurePage(browser: Browser, url: string): Promise<{ first: Sizes; all: Sizes }> {
  const context = await browser.newContext({ serviceWorkers: "block", locale: "en-US" });
  const page = await context.newPage();
  const scripts: Promise<{ path: string; bytes: Uint8Array }>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") {
      const path = new URL(res.url()).pathname;
      scripts.push(res.body().then((b) => ({ path, bytes: new Uint8Array(b) })));
    }
  });
  await page.goto(url, { waitUntil: "networkidle" });
  const bodies = await Promise.all(scripts);
  await context.close();
  const listed: string[] = built.share?.first_load?.["en-US"] ?? precache.map((p) => p.url);
  const firstLoad = new Set(listed);
  const first = { n: 0, raw: 0, gz: 0 };
  const all = { n: 0, raw: 0, gz: 0 };
  for (const { path, bytes } of bodies) {
    const gzip = await gzipSize(bytes);
    for (const s of firstLoad.has(path) ? [all, first] : [all]) {
      s.n++;
      s.raw += bytes.byteLength;
      s.gz += gzip;
    }
  }
  return { first, all };
}

const root = findRepoRoot();
const built = JSON.parse(await Deno.readTextFile(join(root, "dist/manifest.json")));
const precache = built.precache as { url: string }[];
if (!precache?.length) throw new Error("dist/manifest.json has no precache list: run the build");

await serveFromBundle();
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
  const auth = { authorization: `Bearer ${token}` };
  const created = await fetch(`${server.url}/api/paste`, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth },
    body: JSON.stringify({ content: "# Hello\n\nA share page for measuring." }),
  });
  const paste = (await created.json()).data.slug as string;
  const uploaded = await fetch(`${server.url}/api/upload-direct/measure.txt`, {
    method: "PUT",
    headers: auth,
    body: "A file share for measuring.\n",
  });
  const file = (await uploaded.json()).data.slug as string;

  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  const rows: string[] = [];
  try {
    for (
      const [name, path] of [["Paste page", `/paste/${paste}`], ["File page", `/file/${file}`]]
    ) {
      const { first, all } = await measurePage(browser, server.url + path);
      rows.push(
        `| ${name} JavaScript before hydration | ${first.n} | ${kB(first.raw)} | ${kB(first.gz)} |`,
      );
      rows.push(
        `| ${name} JavaScript until network idle | ${all.n} | ${kB(all.raw)} | ${kB(all.gz)} |`,
      );
    }
  } finally {
    await browser.close();
  }

  console.log(`Measured ${new Date().toISOString().slice(0, 10)}, build ${built.build_id}.\n`);
  console.log("| What | Files | Raw | Gzip |");
  console.log("| --- | ---: | ---: | ---: |");
  console.log(`| Service worker precache | ${precache.length} | ${kB(raw)} | ${kB(gz)} |`);
  for (const row of rows) console.log(row);
} finally {
  await server.stop();
}
