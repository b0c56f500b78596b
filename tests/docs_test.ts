/**
 * The docs checks. Every repository path that README.md and docs/*.md mention must exist: a
 * backticked path under one of the repository's top-level folders (or one of its root files),
 * the same inside fenced code blocks, or a relative Markdown link. A `*` in a mentioned path must
 * match at least one file. Runtime paths (`DATA_DIR/…`, `dist/…`, URL paths such as `/api`) are
 * not repository paths and are not checked; a link or a backticked `../` path that leaves the
 * repository is an error, and so is a link anchor that names no heading of its target.
 * The code and the docs cite the product contract by its section numbers in `docs/PRODUCT.md`:
 * nothing cites the documents outside the repository it was written from, and every cited
 * section exists.
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
const ROOT_FILES = [
  "main.ts",
  "main_bundle.ts",
  "main_binary.ts",
  "bundle_start.ts",
  "deno.json",
  "deno.lock",
  "Dockerfile",
  "playwright.config.ts",
];

/** A repository path as the docs write it: `server/x.ts`, `client/`, `server/kv/backup_*.ts`. */
const PATH_TOKEN = new RegExp(
  `(?:^|[\\s\`(\\[|])((?:${TOP_DIRS.join("|")})/[\\w.*/-]*|${
    ROOT_FILES.map((f) => f.replace(".", "\\.")).join("|")
  })(?=$|[\\s\`),.:;|#\\]])`,
  "g",
);
/** `[text](target)` links; external and in-page targets are filtered out afterwards. */
const LINK = /\]\(([^)\s]+)\)/g;

/** The Markdown files the check covers, relative to the repository root. */
export function docFiles(root = ROOT): string[] {
  const docs = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort();
  return ["README.md", "bench/README.md", ...docs.map((f) => `docs/${f}`)];
}

/** Every repository path one Markdown text mentions, relative to the root, in order. */
export function mentionedPaths(text: string, docPath: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(PATH_TOKEN)) found.add(m[1].replace(/[.]+$/, ""));
  for (const m of text.matchAll(LINK)) {
    const target = m[1].split("#")[0];
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue;
    found.add(normalize(join(dirname(docPath), decodeURIComponent(target))));
  }
  // A backticked relative path that climbs out of docs/ (`../x`) names a file too.
  for (const m of text.matchAll(/`(\.\.\/[^`\s]+)`/g)) {
    found.add(normalize(join(dirname(docPath), m[1])));
  }
  return [...found];
}

/** True when a mentioned path (already relative to the root) points outside the repository. */
export function leavesRepository(path: string): boolean {
  return path === ".." || path.startsWith("../");
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
    "[e](../../shared/docs/notes.md). Root file `main.ts`; URL `/dav/`; `../../shared/x.txt`.",
    "An anchored path is still the file: (docs/WEBDAV.md#locks).",
  ].join("\n");
  assert.deepEqual(mentionedPaths(text, "docs/X.md"), [
    "server/app.ts",
    "client/",
    "server/kv/backup_*.ts",
    "server/config.ts",
    "main.ts",
    "docs/WEBDAV.md",
    "README.md",
    "../shared/docs/notes.md",
    "../shared/x.txt",
  ]);
  assert.equal(leavesRepository("../shared/docs/notes.md"), true);
  assert.equal(leavesRepository("docs/WEBDAV.md"), false);
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
      if (leavesRepository(path)) missing.push(`${doc}: ${path} (outside the repository)`);
      else if (!pathExists(path)) missing.push(`${doc}: ${path}`);
    }
  }
  assert.ok(checked > 50, `expected the docs to mention many paths, found ${checked}`);
  assert.deepEqual(
    missing,
    [],
    `paths the docs mention but the tree lacks:\n${missing.join("\n")}`,
  );
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors of every heading of a Markdown text, outside code fences; repeats get `-1`, `-2`. */
export function headingAnchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.+?)\s*$/.exec(line);
    if (!m) continue;
    const base = headingAnchor(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Links of a doc whose `#anchor` names no heading of the Markdown file they point at. */
export function brokenAnchors(text: string, docPath: string, root = ROOT): string[] {
  const broken: string[] = [];
  for (const m of text.matchAll(LINK)) {
    const [target, anchor] = m[1].split("#", 2);
    if (anchor === undefined || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) {
      continue;
    }
    if (!target) {
      if (!headingAnchors(text).has(decodeURIComponent(anchor))) broken.push(m[1]);
      continue;
    }
    const file = normalize(join(dirname(docPath), decodeURIComponent(target)));
    if (!file.endsWith(".md") || leavesRepository(file) || !existsSync(join(root, file))) continue;
    const body = readFileSync(join(root, file), "utf8");
    if (!headingAnchors(body).has(decodeURIComponent(anchor))) broken.push(m[1]);
  }
  return broken;
}

const PRODUCT_DOC = "docs/PRODUCT.md";
/** Folders whose files (code, comments, their READMEs) the citation checks read. */
const CODE_DIRS = ["server", "client", "shared", "scripts", "bench", "tests"];
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|css|sh|md|json|html|txt|ya?ml|toml)$/;
/**
 * Citations of documents that live outside the repository: the spec's sections, the product
 * decisions file, and its sections. The paragraph sign is written as \u00a7 so that this file
 * does not cite anything itself.
 */
const FOREIGN_CITATIONS = [/\bspec\s*\u00a7/gi, /\bproduct\.md/g, /\bproduct\s+\u00a7/gi];
/** One cited section number, with an optional quoted label after it. */
const CITED_SECTION = String.raw`\u00a7\d+(?:\.\d+)*(?:\s+"[^"\n]*")?`;
/** `PRODUCT.md §6`, `PRODUCT.md §3.1 "Paste", §5.2 and §7.2`: one citation of the contract. */
const PRODUCT_CITATION = new RegExp(
  String.raw`PRODUCT\.md\s+${CITED_SECTION}(?:(?:,|\s+and|\s+or)\s+${CITED_SECTION})*`,
  "g",
);
/** Sections of other documents: `RFC 4918 §9.10-9.11`, `Issue 3 §6`. */
const OTHER_CITATION = /(?:RFC \d+|[Ii]ssue \d+) \u00a7[\d.]+(?:-[\d.]+)?/g;

/** The section numbers of PRODUCT.md: `## 6. Roles` is "6", `### 7.3 Files` is "7.3". */
export function productSections(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{2,3} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]));
}

/** The text files under CODE_DIRS plus the docs, relative to the root. */
function citingFiles(root = ROOT): string[] {
  const code = CODE_DIRS.flatMap((d) => walk(root, d)).filter((p) => TEXT_FILE.test(p));
  return [...new Set([...code, ...docFiles(root)])].sort();
}

/** "file:line: what" for each citation of a document outside the repository. */
export function foreignCitations(text: string, file: string): string[] {
  return FOREIGN_CITATIONS.flatMap((re) =>
    [...text.matchAll(re)].map((m) => `${file}:${lineOf(text, m.index)}: ${m[0]}`)
  );
}

/**
 * "file:line: what" for each section sign that is not part of a known citation, and for each
 * cited PRODUCT.md section that does not exist. In PRODUCT.md itself a bare section sign cites its
 * own section.
 */
export function citationProblems(text: string, file: string, sections: Set<string>): string[] {
  const problems: string[] = [];
  const check = (index: number, cited: string) => {
    for (const n of cited.matchAll(/\u00a7(\d+(?:\.\d+)*)/g)) {
      if (!sections.has(n[1])) problems.push(`${file}:${lineOf(text, index)}: no section ${n[0]}`);
    }
  };
  let rest = text;
  for (const m of text.matchAll(PRODUCT_CITATION)) {
    check(m.index, m[0]);
    rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice(m.index + m[0].length);
  }
  rest = rest.replace(OTHER_CITATION, (c) => " ".repeat(c.length));
  for (const m of rest.matchAll(/\u00a7[\d.]*/g)) {
    if (file === PRODUCT_DOC) check(m.index, m[0]);
    else problems.push(`${file}:${lineOf(text, m.index)}: "${m[0]}" cites no document`);
  }
  return problems;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

Deno.test("docs: anchors and citations are read as intended", () => {
  const S = "\u00a7";
  const decisionsFile = "product" + ".md";
  assert.equal(headingAnchor("7.3 Files"), "73-files");
  assert.equal(headingAnchor("Start-up (`main.ts`)"), "start-up-maints");
  const doc = "# T\n## 6. Roles and permissions\n```\n# not a heading\n```\n## A\n## A\n";
  assert.deepEqual([...headingAnchors(doc)], ["t", "6-roles-and-permissions", "a", "a-1"]);
  assert.deepEqual(
    brokenAnchors(
      "[x](#a-1) [y](#nope) [z](PRODUCT.md#6-roles-and-permissions)\n" + doc,
      "docs/X.md",
    ),
    ["#nope"],
  );
  const sections = new Set(["3.1", "5.2", "6"]);
  const code = [
    `/** Rules (docs/PRODUCT.md ${S}3.1 "Paste", ${S}5.2 and ${S}6). */`,
    `// RFC 4918 ${S}9.10-9.11; Issue 3 ${S}6`,
    `// docs/PRODUCT.md ${S}7 and the ${S}5 rules; spec ${S}2; see ${decisionsFile}`,
  ].join("\n");
  assert.deepEqual(citationProblems(code, "x.ts", sections), [
    `x.ts:3: no section ${S}7`,
    `x.ts:3: "${S}5" cites no document`,
    `x.ts:3: "${S}2" cites no document`,
  ]);
  assert.deepEqual(foreignCitations(code, "x.ts"), [
    `x.ts:3: spec ${S}`,
    `x.ts:3: ${decisionsFile}`,
  ]);
  assert.deepEqual(citationProblems(`see ${S}6 and ${S}9`, PRODUCT_DOC, sections), [
    `${PRODUCT_DOC}:1: no section ${S}9`,
  ]);
});

Deno.test("docs: every link anchor names a heading of the Markdown it points at", () => {
  const broken = docFiles().flatMap((doc) =>
    brokenAnchors(readFileSync(join(ROOT, doc), "utf8"), doc).map((link) => `${doc}: ${link}`)
  );
  assert.deepEqual(broken, [], `links to headings that do not exist:\n${broken.join("\n")}`);
});

Deno.test("docs: no code or doc cites the spec or the decisions file outside the repo", () => {
  const files = citingFiles();
  assert.ok(files.length > 300, `expected to read many files, found ${files.length}`);
  const found = files.flatMap((f) => foreignCitations(readFileSync(join(ROOT, f), "utf8"), f));
  assert.deepEqual(
    found,
    [],
    "cite docs/PRODUCT.md instead: the spec's section N is its \u00a7N, the product " +
      `decisions' section N its \u00a7(N+9):\n${found.join("\n")}`,
  );
});

Deno.test("docs: every docs/PRODUCT.md section cited in code or docs exists", () => {
  const sections = productSections(readFileSync(join(ROOT, PRODUCT_DOC), "utf8"));
  assert.ok(sections.has("6.2") && sections.has("16"), "PRODUCT.md's numbered headings");
  const problems = citingFiles().flatMap((f) =>
    citationProblems(readFileSync(join(ROOT, f), "utf8"), f, sections)
  );
  assert.deepEqual(problems, [], `citations that do not resolve:\n${problems.join("\n")}`);
});
