/**
 * The docs check: every repository path that README.md and docs/*.md mention must exist.
 * A mention is a backticked path under one of the repository's top-level folders (or one of its
 * root files), the same inside fenced code blocks, or a relative Markdown link. A `*` in a
 * mentioned path must match at least one file. Runtime paths (`DATA_DIR/…`, `dist/…`, URL
 * paths such as `/api`) are not repository paths and are not checked.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { findRepoRoot } from "./helpers/server.ts";

const ROOT = findRepoRoot();
const TOP_DIRS = [
  "server",
  "client",
  "shared",
  "scripts",
  "tests",
  "bench",
  "docs",
  "static",
  "cli",
];
const ROOT_FILES = ["main.ts", "deno.json", "deno.lock", "Dockerfile", "playwright.config.ts"];

/** A repository path as the docs write it: `server/x.ts`, `client/`, `server/kv/backup_*.ts`. */
const PATH_TOKEN = new RegExp(
  `(?:^|[\\s\`(\\[|])((?:${TOP_DIRS.join("|")})/[\\w.*/-]*|${
    ROOT_FILES.map((f) => f.replace(".", "\\.")).join("|")
  })(?=$|[\\s\`),.:;|\\]])`,
  "g",
);
/** `[text](target)` links; external and in-page targets are filtered out afterwards. */
const LINK = /\]\(([^)\s]+)\)/g;

/** The Markdown files the check covers, relative to the repository root. */
export function docFiles(root = ROOT): string[] {
  const docs = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort();
  return ["README.md", ...docs.map((f) => `docs/${f}`)];
}

/** Every repository path one Markdown text mentions, relative to the root, in order. */
export function mentionedPaths(text: string, docPath: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(PATH_TOKEN)) found.add(m[1].replace(/[.]+$/, ""));
  for (const m of text.matchAll(LINK)) {
    const target = m[1].split("#")[0];
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue;
    const resolved = normalize(join(dirname(docPath), decodeURIComponent(target)));
    // A link that leaves the repository (../shared/docs/…) points at the workspace, not at us.
    if (!resolved.startsWith("..")) found.add(resolved);
  }
  return [...found];
}

/** All files and folders under `dir`, relative to the root, skipping build and tool output. */
function walk(root: string, dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir))) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const rel = dir ? `${dir}/${name}` : name;
    out.push(rel);
    if (statSync(join(root, rel)).isDirectory()) walk(root, rel, out);
  }
  return out;
}

/** True when the mentioned path (maybe with `*`, maybe ending in `/`) exists in the tree. */
export function pathExists(path: string, root = ROOT): boolean {
  const bare = path.replace(/\/$/, "");
  if (!bare.includes("*")) {
    if (!existsSync(join(root, bare))) return false;
    return !path.endsWith("/") || statSync(join(root, bare)).isDirectory();
  }
  const top = bare.slice(0, bare.indexOf("*")).replace(/[^/]*$/, "").replace(/\/$/, "");
  if (top && !existsSync(join(root, top))) return false;
  const pattern = new RegExp(
    "^" + bare.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*") + "$",
  );
  return walk(root, top).some((p) => pattern.test(p));
}

Deno.test("docs: the path extractor finds backticked paths, globs and relative links", () => {
  const text = [
    "See `server/app.ts`, `client/` and `server/kv/backup_*.ts`; `DATA_DIR/storage` is runtime.",
    "```",
    "server/config.ts        the only reader",
    "```",
    "Links: [a](WEBDAV.md#locks), [b](../README.md), [c](https://x.test/a), [d](/api), " +
    "[e](../../shared/docs/product.md). Root file `main.ts`; URL `/dav/`.",
  ].join("\n");
  assert.deepEqual(mentionedPaths(text, "docs/X.md"), [
    "server/app.ts",
    "client/",
    "server/kv/backup_*.ts",
    "server/config.ts",
    "main.ts",
    "docs/WEBDAV.md",
    "README.md",
  ]);
  assert.equal(pathExists("server/backup/backup_*.ts"), true);
  assert.equal(pathExists("server/kv/nothing_like_this_*.ts"), false);
  assert.equal(pathExists("server/app.ts/"), false, "a trailing slash means a folder");
  assert.equal(pathExists("client/"), true);
});

Deno.test("docs: every repository path in README.md and docs/*.md exists", () => {
  const missing: string[] = [];
  let checked = 0;
  for (const doc of docFiles()) {
    const text = readFileSync(join(ROOT, doc), "utf8");
    for (const path of mentionedPaths(text, doc)) {
      checked++;
      if (!pathExists(path)) missing.push(`${doc}: ${path}`);
    }
  }
  assert.ok(checked > 50, `expected the docs to mention many paths, found ${checked}`);
  assert.deepEqual(
    missing,
    [],
    `paths the docs mention but the tree lacks:\n${missing.join("\n")}`,
  );
});
