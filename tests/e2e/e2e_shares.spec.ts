/**
 * End-to-end encrypted shares in Chromium (docs/E2E.md), on a server of their own so its whole
 * data directory can be read afterwards:
 *
 * - nothing secret reaches the server: an encrypted paste and encrypted files (form and
 *   multipart) carry known markers in their text, names and content, and passwords of their
 *   own; no request the page sends (URL, headers, body) holds a marker, a password or a key,
 *   and no byte on disk does (KV file, storage, spool, a backup), nor the server's log;
 * - round trip: a fresh browser with the links decrypts the text, previews the file and
 *   downloads both files byte for byte (streamed by the service worker); its caches, offline
 *   store and storages keep no key afterwards;
 * - previews: an image and a Markdown file are decrypted in the page and shown.
 */
import type { Request } from "@playwright/test";
import { Buffer } from "node:buffer";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, loginAdmin, test } from "./fixtures.ts";
import { newContext } from "./pages/test_data.ts";
import { E2EHomePage, E2ESharePage, E2EUploadPage, storedByOrigin } from "./pages/e2e_pages.ts";
import { e2eFile } from "../helpers/e2e.ts";

test.use({ locale: "en-US" });

const MiB = 1024 * 1024;
const rand = () => crypto.randomUUID().replaceAll("-", "").slice(0, 12);

/** Every file under `dir` whose bytes hold one of `needles` (UTF-8 or UTF-16LE). */
async function filesHolding(dir: string, needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  const patterns = needles.flatMap((n) => [Buffer.from(n, "utf8"), Buffer.from(n, "utf16le")]);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const bytes = await readFile(path);
    if (patterns.some((p) => bytes.includes(p))) hits.push(path);
  }
  return hits;
}

/** What a request carries: its URL, its headers and its body. */
async function requestText(req: Request): Promise<string> {
  const body = req.postDataBuffer();
  return [req.url(), JSON.stringify(await req.allHeaders()), body?.toString("latin1") ?? ""]
    .join("\n");
}

test("nothing secret reaches the server, and a fresh browser decrypts every share", async ({ browser, isolatedServer }) => {
  test.setTimeout(180_000);
  const marker = `cubby-secret-${rand()}`;
  const pastePassword = `pw-paste-${rand()}`;
  const filePassword = `pw-file-${rand()}`;
  const token = await loginAdmin(isolatedServer);
  const context = await newContext(browser, { baseURL: isolatedServer.url, adminToken: token });
  // Files over 1 MiB go up in parts.
  await context.addInitScript(() =>
    localStorage.setItem("cubby.multipartThreshold", String(1024 * 1024))
  );
  const sent: { req: Request; text: Promise<string> }[] = [];
  context.on("request", (req) => void sent.push({ req, text: requestText(req) }));
  const page = await context.newPage();

  const text = `# ${marker}\n\nThe text of an encrypted paste: ${marker}.`;
  const pasteLink = await new E2EHomePage(page).createEncrypted(text, pastePassword);
  expect(pasteLink).toMatch(/\/paste\/[A-Za-z0-9]+#[A-Za-z0-9_-]{43}$/);

  const upload = new E2EUploadPage(page);
  await upload.goto();
  const smallName = `${marker}-small.txt`;
  const small = Buffer.from(`${marker}\n`.repeat(2000));
  const smallLink = await upload.uploadEncrypted(
    { name: smallName, mimeType: "text/plain", buffer: small },
    smallName,
    { password: filePassword },
  );
  const bigName = `${marker}-big.bin`;
  const big = Buffer.alloc(6 * MiB + 12345);
  for (let at = 0; at < big.length; at += 4096) big.write(marker, at, "utf8");
  await upload.goto();
  const bigLink = await upload.uploadEncrypted(
    { name: bigName, mimeType: "application/octet-stream", buffer: big },
    bigName,
  );
  const seen = await Promise.all(sent.map(async (s) => ({ req: s.req, text: await s.text })));
  await context.close();

  const keys = [pasteLink, smallLink, bigLink].map((l) => new URL(l).hash.slice(1));
  const secrets = [marker, pastePassword, filePassword, ...keys];
  const urls = seen.map((s) => s.req.url());
  expect(urls.some((u) => /\/api\/s3\/multipart\/complete$/.test(u)), "multipart").toBe(true);
  expect(urls.some((u) => u.endsWith("/api/upload")), "a form upload").toBe(true);
  for (const { req, text } of seen) {
    for (const s of secrets) expect(text.includes(s), `${req.method()} ${req.url()}`).toBe(false);
  }
  const backup = await fetch(`${isolatedServer.url}/api/admin/backup/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ modules: ["text_management", "file_management"] }),
  });
  expect(backup.status).toBe(200);
  const backupText = await backup.text();
  expect(backupText).toContain('"e2e"');
  for (const s of secrets) expect(backupText.includes(s), "the backup").toBe(false);
  expect(await filesHolding(isolatedServer.dataDir, secrets)).toEqual([]);
  for (const s of secrets) expect(isolatedServer.output().includes(s), "the log").toBe(false);

  // A fresh browser: decrypts the text, previews the small file, downloads both files.
  const visitor = await newContext(browser, { baseURL: isolatedServer.url, acceptDownloads: true });
  const visited: string[] = [];
  visitor.on("request", (req) => void visited.push(req.url()));
  const view = new E2ESharePage(await visitor.newPage());
  await view.open(pasteLink);
  await view.unlock(pastePassword);
  await expect(view.content).toContainText(`The text of an encrypted paste: ${marker}.`);

  await view.open(smallLink);
  await view.unlock(filePassword);
  await expect(view.fileTitle).toHaveText(smallName);
  await expect(view.page.getByLabel(`Contents of ${smallName}`)).toContainText(marker);
  await view.workerReady();
  const smallCopy = await view.download();
  expect(smallCopy.suggestedFilename()).toBe(smallName);
  expect(Buffer.compare(await readFile((await smallCopy.path())!), small)).toBe(0);
  await expect(view.downloadStatus).toHaveText("Download decrypted and saved.");

  await view.open(bigLink);
  await expect(view.fileTitle).toHaveText(bigName);
  const bigCopy = await view.download();
  expect(Buffer.compare(await readFile((await bigCopy.path())!), big)).toBe(0);
  // Both downloads were streamed by the service worker, not decrypted in the page.
  expect(visited.filter((u) => u.includes("/e2e-download/")).length).toBe(2);

  const kept = await storedByOrigin(view.page);
  for (const s of [...keys, marker, pastePassword, filePassword]) {
    expect(kept.includes(s), "the origin's caches and storages").toBe(false);
  }
  await visitor.close();
});

/** A 1×1 PNG. */
const DOT_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("previews decrypt in the page: an image and a Markdown file", async ({ browser, adminToken, baseURL }) => {
  test.setTimeout(60_000);
  const links: Record<string, string> = {};
  for (
    const [name, type, bytes] of [
      ["dot.png", "image/png", DOT_PNG],
      ["notes.md", "text/markdown", Buffer.from("# Decrypted heading\n\nSome *text*.")],
    ] as const
  ) {
    const file = await e2eFile(bytes, { name, type });
    const form = new FormData();
    form.set("password", file.token);
    form.set("e2e", JSON.stringify(file.e2e));
    form.set("file", new Blob([file.sealed]), "encrypted.bin");
    const res = await fetch(`${baseURL}/api/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}` },
      body: form,
    });
    const share = (await res.json()).data;
    links[name] = `${baseURL}/file/${share.slug}#${file.fragment}`;
  }
  const visitor = await newContext(browser);
  const view = new E2ESharePage(await visitor.newPage());
  await view.open(links["dot.png"]);
  const image = view.page.getByRole("img", { name: "dot.png" });
  await expect(image).toHaveAttribute("src", /^blob:/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await view.open(links["notes.md"]);
  await expect(view.page.getByRole("heading", { name: "Decrypted heading" })).toBeVisible();
  await visitor.close();
});
