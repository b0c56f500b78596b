/**
 * The command-line client and the browser read each other's end-to-end encrypted shares: a
 * file and a text sent with `deno run <server>/cli.ts send` open and download in Chromium, and
 * a file (with a password) and a text made in Chromium come back byte for byte through
 * `cli.ts get`.
 */
import { spawn } from "node:child_process";
import { Buffer } from "node:buffer";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { expect, test } from "./fixtures.ts";
import { newContext, uniqueSlug } from "./pages/test_data.ts";
import { E2EHomePage, E2ESharePage, E2EUploadPage } from "./pages/e2e_pages.ts";
import { denoBinary } from "../helpers/server.ts";

test.use({ locale: "en-US" });

let work = "";
test.beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "cubby-e2e-cli-"));
});
test.afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Runs the client the server serves; resolves with its exit code and output. */
function cli(
  baseURL: string,
  args: string[],
  env: Record<string, string> = {},
  stdin?: Buffer,
): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      denoBinary(),
      [
        "run",
        "--quiet",
        "--allow-net",
        `--allow-read=${work}`,
        `--allow-write=${work}`,
        "--allow-env",
        `${baseURL}/cli.ts`,
        ...args,
      ],
      { cwd: work, env: { PATH: process.env.PATH ?? "", DENO_DIR: join(work, ".deno"), ...env } },
    );
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (c: Buffer) => void out.push(c));
    child.stderr.on("data", (c: Buffer) => void (err += String(c)));
    child.on("error", reject);
    child.on(
      "close",
      (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err }),
    );
    child.stdin.end(stdin);
  });
}

/** An API key that may share files and texts. */
async function apiKey(baseURL: string, adminToken: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/admin/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: uniqueSlug("cli"), permissions: { text: true, file: true } }),
  });
  return (await res.json()).data.key;
}

test("shares sent from the command line open and download in the browser", async ({ browser, baseURL, adminToken }) => {
  test.setTimeout(120_000);
  const key = await apiKey(baseURL!, adminToken);
  const bytes = Buffer.from(Array.from({ length: 700_000 }, (_, i) => (i * 31) % 256));
  await writeFile(join(work, "from-cli.bin"), bytes);
  const file = await cli(baseURL!, ["send", join(work, "from-cli.bin"), "--key", key]);
  expect(file.code, file.stderr).toBe(0);
  const text = await cli(
    baseURL!,
    ["send", "--text", "--key", key],
    {},
    Buffer.from("# From the terminal\n\nhello"),
  );
  expect(text.code, text.stderr).toBe(0);

  const visitor = await newContext(browser, { acceptDownloads: true });
  const view = new E2ESharePage(await visitor.newPage());
  await view.open(String(text.stdout).trim());
  await expect(view.content).toContainText("From the terminal");
  await view.open(String(file.stdout).trim());
  await expect(view.fileTitle).toHaveText("from-cli.bin");
  await view.workerReady();
  const download = await view.download();
  expect(download.suggestedFilename()).toBe("from-cli.bin");
  expect(Buffer.compare(await readFile((await download.path())!), bytes)).toBe(0);
  await visitor.close();
});

test("shares made in the browser come back through the command line", async ({ browser, baseURL, adminToken }) => {
  test.setTimeout(120_000);
  const server = baseURL!;
  const context = await newContext(browser, { adminToken });
  const page = await context.newPage();
  const pasteLink = await new E2EHomePage(page).createEncrypted("Written in the browser ✓");
  const upload = new E2EUploadPage(page);
  await upload.goto();
  const name = `${uniqueSlug("to-cli")}.bin`;
  const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251));
  const fileLink = await upload.uploadEncrypted(
    { name, mimeType: "application/octet-stream", buffer: bytes },
    name,
    { password: "browser password" },
  );
  await context.close();

  const pasted = await cli(server, ["get", pasteLink]);
  expect(pasted.code, pasted.stderr).toBe(0);
  expect(String(pasted.stdout)).toBe("Written in the browser ✓");
  const got = await cli(server, ["get", fileLink], { CUBBY_PASSWORD: "browser password" });
  expect(got.code, got.stderr).toBe(0);
  expect(Buffer.compare(await readFile(join(work, name)), bytes)).toBe(0);
});
