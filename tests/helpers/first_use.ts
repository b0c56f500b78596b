/**
 * Memory after first use, shared by tests/memory_test.ts and bench/memory.ts: one request of
 * each kind a server sees soon after it starts (a small upload, a paste, its share page, a file
 * page, the app shell, a JSON view), then the server's RSS once it stops moving.
 */
import { readRss } from "../shell/helpers.ts";
import type { TestServer } from "./server.ts";

/** Markdown with what a share page renders: headings, a table, a link, highlighted code. */
export const FIRST_USE_MARKDOWN = [
  "# Notes",
  "",
  "Some **bold** text, a [link](https://example.com) and `inline code`.",
  "",
  "| a | b |",
  "| - | - |",
  "| 1 | 2 |",
  "",
  "```ts",
  "const answer: number = 42;",
  "```",
  "",
].join("\n");

async function expectStatus(res: Response, status: number, what: string): Promise<string> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${text}`);
  return text;
}

/** Makes one request of each kind, as `auth` (an admin's "Bearer …"); returns the paths read. */
export async function useEveryPageKind(server: Pick<TestServer, "url">, auth: string) {
  const up = await fetch(`${server.url}/api/upload-direct/notes.txt`, {
    method: "PUT",
    headers: { authorization: auth },
    body: "a small upload\n",
  });
  const file = JSON.parse(await expectStatus(up, 201, "the small upload")).data;
  const created = await fetch(`${server.url}/api/paste`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ content: FIRST_USE_MARKDOWN }),
  });
  const paste = JSON.parse(await expectStatus(created, 201, "creating a paste")).data;
  const pages = {
    share: `/paste/${paste.slug}`,
    file: `/file/${file.slug}`,
    shell: "/",
    json: `/api/paste/${paste.slug}`,
  };
  for (const [kind, path] of Object.entries(pages)) {
    const body = await expectStatus(await fetch(server.url + path), 200, `${kind} ${path}`);
    if (kind === "share" && !body.includes('<code class="hljs language-ts">')) {
      throw new Error(`the share page did not render the Markdown: ${body.slice(0, 500)}`);
    }
  }
  return pages;
}

/**
 * Samples the RSS of `pid` every `intervalMs` until `samples` readings in a row lie within
 * `toleranceBytes`, and returns their mean; throws after `deadlineMs` without that.
 */
export async function settledRss(
  pid: number,
  { intervalMs = 100, samples = 10, toleranceBytes = 512 * 1024, deadlineMs = 30_000 } = {},
): Promise<number> {
  const start = performance.now();
  const window: number[] = [];
  while (performance.now() - start < deadlineMs) {
    window.push((await readRss(pid)).rss);
    if (window.length > samples) window.shift();
    if (window.length === samples && Math.max(...window) - Math.min(...window) <= toleranceBytes) {
      return window.reduce((a, b) => a + b, 0) / samples;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`RSS of ${pid} did not settle within ${deadlineMs} ms: ${window.join(", ")}`);
}
