/**
 * End-to-end encrypted share pages facing wrong input (docs/E2E.md): a link without its key, a
 * malformed or wrong key, a wrong password, and ciphertext that was tampered with, truncated,
 * reordered or extended (in KV for texts, on disk for files) each get a clear message, and no
 * plaintext of the share appears on the page, in a preview or in a finished download.
 */
import { Buffer } from "node:buffer";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, loginAdmin, test, type TestServer } from "./fixtures.ts";
import { newContext } from "./pages/test_data.ts";
import { E2ESharePage } from "./pages/e2e_pages.ts";
import { e2eFile, e2eKeys } from "../helpers/e2e.ts";
import { concatBytes, toBase64Url } from "../../shared/e2e/bytes.ts";
import { encryptBytes, HEADER_BYTES, makeHeader, TAG_BYTES } from "../../shared/e2e/stream.ts";

test.use({ locale: "en-US" });

const SECRET = "SECRET-LINE";
/** Lines of a text spread over many 64-byte records. */
const PLAIN = Array.from({ length: 40 }, (_, i) => `${SECRET} ${i}`).join("\n");
const RS = 64;

/** Creates an encrypted paste from raw ciphertext bytes; returns its slug. */
async function pasteOf(server: TestServer, token: string, sealed: Uint8Array, access: string) {
  const res = await fetch(`${server.url}/api/paste`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      content: toBase64Url(sealed),
      password: access,
      e2e: { version: 1, has_password: false },
    }),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data.slug as string;
}

/** The sealed records of a stream, and its header. */
function records(sealed: Uint8Array) {
  const out: Uint8Array[] = [];
  for (let at = HEADER_BYTES; at < sealed.length; at += RS + TAG_BYTES) {
    out.push(sealed.slice(at, at + RS + TAG_BYTES));
  }
  return { header: sealed.slice(0, HEADER_BYTES), out };
}

/** Ways to spoil a stream, each of which the reader must refuse. */
function spoiled(sealed: Uint8Array): Record<string, Uint8Array> {
  const { header, out } = records(sealed);
  const flipped = sealed.slice();
  flipped[HEADER_BYTES + 3 * (RS + TAG_BYTES) + 5] ^= 0x20;
  return {
    "a flipped bit": flipped,
    "a dropped final record": concatBytes([header, ...out.slice(0, -1)]),
    "two records swapped": concatBytes([header, out[0], out[2], out[1], ...out.slice(3)]),
    "an appended record": concatBytes([header, ...out, out[out.length - 1]]),
  };
}

test("a missing, malformed or wrong key, or a wrong password, is said plainly", async ({ browser, isolatedServer }) => {
  test.setTimeout(90_000);
  const token = await loginAdmin(isolatedServer);
  const keys = await e2eKeys("right password");
  const sealed = await encryptBytes(keys.secret, Buffer.from(PLAIN), makeHeader(RS));
  const res = await fetch(`${isolatedServer.url}/api/paste`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      content: toBase64Url(sealed),
      password: keys.token,
      e2e: { version: 1, has_password: true },
    }),
  });
  const slug = (await res.json()).data.slug;
  const context = await newContext(browser, { baseURL: isolatedServer.url });
  const view = new E2ESharePage(await context.newPage());
  const url = `${isolatedServer.url}/paste/${slug}`;

  await view.open(url);
  await expect(view.problem).toContainText("This link has no key.");
  await view.open(`${url}#not-a-key`);
  await expect(view.problem).toContainText("The key in this link is malformed.");
  await expect(view.passwordInput).toHaveCount(0);

  await view.open(`${url}#${(await e2eKeys()).fragment}`);
  await view.unlock("right password");
  await expect(view.passwordError).toHaveText("Wrong password (or a wrong key in the link).");

  await view.open(`${url}#${keys.fragment}`);
  await view.unlock("wrong password");
  await expect(view.passwordError).toHaveText("Wrong password (or a wrong key in the link).");
  await expect(view.page.getByText(SECRET)).toHaveCount(0);
  await view.unlock("right password");
  await expect(view.content).toContainText(`${SECRET} 39`);

  // Without a password, a wrong key is a wrong key.
  const open = await e2eKeys();
  const openSlug = await pasteOf(
    isolatedServer,
    token,
    await encryptBytes(open.secret, Buffer.from(PLAIN), makeHeader(RS)),
    open.token,
  );
  await view.open(`${isolatedServer.url}/paste/${openSlug}#${(await e2eKeys()).fragment}`);
  await expect(view.problem).toContainText("The key in this link does not open this share.");
  await context.close();
});

test("tampered, truncated, reordered or extended text is refused, showing none of it", async ({ browser, isolatedServer }) => {
  test.setTimeout(90_000);
  const token = await loginAdmin(isolatedServer);
  const keys = await e2eKeys();
  const sealed = await encryptBytes(keys.secret, Buffer.from(PLAIN), makeHeader(RS));
  const context = await newContext(browser, { baseURL: isolatedServer.url });
  const view = new E2ESharePage(await context.newPage());
  for (const [how, bytes] of Object.entries(spoiled(sealed))) {
    const slug = await pasteOf(isolatedServer, token, bytes, keys.token);
    await view.open(`${isolatedServer.url}/paste/${slug}#${keys.fragment}`);
    await expect(view.problem, how).toContainText("The encrypted data was altered or is damaged.");
    await expect(view.page.getByText(SECRET), how).toHaveCount(0);
  }
  await context.close();
});

test("a tampered or cut file: no preview, and the download stops unfinished", async ({ browser, isolatedServer }) => {
  test.setTimeout(120_000);
  const token = await loginAdmin(isolatedServer);
  const file = await e2eFile(
    Buffer.from(PLAIN),
    { name: "notes.txt", type: "text/plain" },
    null,
    RS,
  );
  const context = await newContext(browser, { baseURL: isolatedServer.url, acceptDownloads: true });
  const view = new E2ESharePage(await context.newPage());
  for (const [how, bytes] of Object.entries(spoiled(file.sealed))) {
    const form = new FormData();
    form.set("password", file.token);
    form.set("e2e", JSON.stringify(file.e2e));
    form.set("file", new Blob([file.sealed]), "encrypted.bin");
    const res = await fetch(`${isolatedServer.url}/api/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const share = (await res.json()).data;
    // Spoiled on disk after the upload, as a hostile operator or a failing disk would.
    const path = join(isolatedServer.dataDir, "storage", share.storage_path);
    expect(Buffer.compare(await readFile(path), Buffer.from(file.sealed)), how).toBe(0);
    await writeFile(path, bytes);

    await view.open(`${isolatedServer.url}/file/${share.slug}#${file.fragment}`);
    await expect(view.fileTitle, how).toHaveText("notes.txt");
    await expect(view.problem, how).toContainText("The encrypted data was altered or is damaged.");
    await expect(view.page.getByText(SECRET), how).toHaveCount(0);
    await view.workerReady();
    const download = await view.download();
    expect(await download.failure(), how).not.toBeNull();
    await expect(view.downloadError, how).toHaveText(/The download stopped/);
  }
  await context.close();
});
