/** The requests bench/http.ts measures on the real server, and how to check them. */
import { loginAdmin } from "../tests/helpers/server.ts";
import type { Case } from "./wrk.ts";

/** A case with a short key for `--cases=floor,share,...` and its goal against its ceiling. */
export type KeyedCase = Case & { key: string; goal?: number };

/** Every case key, in the order the table lists them. */
export const CASE_KEYS = ["floor", "floor1", "create", "json", "raw", "raw-many", "share"] as const;

/** How many pastes the `raw-many` case views in turn. */
const MANY_PASTES = 200;

/** The viewed paste: about 2 kB of Markdown, stored inline in its record. */
export const PASTE_TEXT = "# Benchmark paste\n\n" +
  "Cubby keeps text and files for you. ".repeat(56);

/** Sends the case's request once and checks its status, so we never benchmark an error. */
export async function probe(c: Case): Promise<string> {
  const res = await fetch(c.url, { method: c.method, headers: c.headers, body: c.body });
  const text = await res.text();
  if (res.status !== c.expectStatus) {
    throw new Error(
      `${c.name}: ${c.method} ${c.url} answered ${res.status}, not ${c.expectStatus}: ` +
        text.slice(0, 300),
    );
  }
  return text;
}

/** Creates an API key and a paste on the server; returns the cases that measure it. */
export async function prepareCases(url: string): Promise<KeyedCase[]> {
  const token = await loginAdmin({ url });
  const keyRes = await fetch(`${url}/api/admin/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench", permissions: { text: true } }),
  });
  const keyBody = await keyRes.json();
  if (keyRes.status !== 201) throw new Error(`creating an API key: ${JSON.stringify(keyBody)}`);
  const auth = { authorization: `ApiKey ${keyBody.data.key}` };
  const json = { "content-type": "application/json" };

  const createPaste = async (content: string): Promise<string> => {
    const pasteRes = await fetch(`${url}/api/paste`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify({ content }),
    });
    const pasteBody = await pasteRes.json().catch(() => null);
    const slug = pasteBody?.data?.slug;
    if (pasteRes.status !== 201 || !slug) {
      throw new Error(`POST /api/paste answered ${pasteRes.status} ${JSON.stringify(pasteBody)}`);
    }
    return slug;
  };
  const slug = await createPaste(PASTE_TEXT);
  const many: string[] = [];
  for (let i = 0; i < MANY_PASTES; i++) many.push(await createPaste(`${i}\n${PASTE_TEXT}`));
  return [
    {
      key: "floor",
      name: "API floor: `GET /api/version`",
      method: "GET",
      url: `${url}/api/version`,
      expectStatus: 200,
      goal: 0.3,
    },
    {
      key: "floor1",
      name: "API floor, 1 connection: `GET /api/version`",
      method: "GET",
      url: `${url}/api/version`,
      expectStatus: 200,
      connections: 1,
    },
    {
      key: "create",
      name: "Paste create: `POST /api/paste` (API key)",
      method: "POST",
      url: `${url}/api/paste`,
      headers: { ...auth, ...json },
      body: JSON.stringify({ content: "Benchmark paste from wrk: hello, Cubby!" }),
      expectStatus: 201,
      ceiling: "commit",
      goal: 0.5,
    },
    {
      key: "json",
      name: "JSON view: `GET /api/paste/:slug`",
      method: "GET",
      url: `${url}/api/paste/${slug}`,
      expectStatus: 200,
      ceiling: "read",
      goal: 0.5,
    },
    {
      key: "raw",
      name: "Raw view: `GET /api/raw/:slug`",
      method: "GET",
      url: `${url}/api/raw/${slug}`,
      expectStatus: 200,
      ceiling: "read",
      goal: 0.6,
    },
    {
      key: "raw-many",
      name: `Raw view of ${MANY_PASTES} pastes in turn: \`GET /api/raw/:slug\``,
      method: "GET",
      url: `${url}/api/raw/${many[0]}`,
      paths: many.map((s) => `/api/raw/${s}`),
      expectStatus: 200,
      ceiling: "read",
      goal: 0.6,
    },
    {
      key: "share",
      name: "Share page (SSR): `GET /paste/:slug`",
      method: "GET",
      url: `${url}/paste/${slug}`,
      expectStatus: 200,
      ceiling: "react",
      goal: 0.7,
    },
  ];
}

/** Counts the elements of the share page's server-rendered root, for the React ceiling. */
export function pageShape(html: string): { elements: number; bytes: number } {
  const root = html.match(/<div id="root"[^>]*>([\s\S]*)<\/div>\n<script id="__cubby_data"/)?.[1];
  if (!root) throw new Error("the share page has no server-rendered root");
  return { elements: (root.match(/<[a-z]/g) ?? []).length, bytes: html.length };
}
