/**
 * The API conformance run: schemathesis (PyPI, version pinned in requirements.txt beside this
 * file) fuzzes every operation of /api/openapi.json against a real server, once per identity
 * (anonymous, an API key, the admin), and checks that nothing answers 5xx, that every status
 * is documented and that every body matches its documented schema and media type.
 *
 *   deno task test:api     this run alone (installs nothing: see scripts/install_schemathesis.sh)
 *
 * The fuzzer sends whatever the document allows, URLs included, and the server fetches URLs
 * (URL upload, download tasks, storage-config tests), so the run lives in a network namespace
 * of its own with only loopback: it re-executes itself under `unshare --net` first.
 * The last line is `N passed, M failed` (one per operation and identity).
 */
import { join, resolve } from "node:path";
import { startServer } from "../helpers/server.ts";
import { seed, withExamples } from "./seed.ts";
import { findSchemathesis } from "./install.ts";
import { type Counts, parseJunit } from "./junit.ts";

const root = resolve(import.meta.dirname!, "../..");
/**
 * Examples per operation and phase: small, so that all runs together take a few minutes.
 * CUBBY_FUZZ_EXAMPLES and CUBBY_FUZZ_SEED override them for a deeper or another run.
 */
const MAX_EXAMPLES = Number(Deno.env.get("CUBBY_FUZZ_EXAMPLES") || 6);
const SEED = Number(Deno.env.get("CUBBY_FUZZ_SEED") || 20260);
const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
];
/**
 * Operations that end or replace the admin session (logout, a password change, a restore that
 * replaces the data): fuzzed as the admin only in a last run of their own, on a session of its
 * own, so that the main admin run keeps a valid session throughout.
 */
const SESSION_ENDING = [
  "POST /api/admin/logout",
  "POST /api/admin/change-password",
  "POST /api/admin/backup/restore",
];

type Json = Record<string, unknown>;
type Run = {
  name: string;
  auth: (s: Awaited<ReturnType<typeof seed>>) => string | null;
  include?: string[];
  exclude?: string[];
  /**
   * True for an operation whose auth check this identity never passes (by its `security`): every
   * input gets the same 401 or 403, so the coverage phase (dozens of boundary inputs) is skipped
   * there; the examples and fuzzing phases still run and check it.
   */
  locked?: (security: Json[]) => boolean;
};

const isOpen = (security: Json[]) =>
  security.length === 0 || security.some((s) => Object.keys(s).length === 0);

const RUNS: Run[] = [
  { name: "anonymous", auth: () => null, locked: (sec) => !isOpen(sec) },
  {
    name: "API key",
    auth: (s) => s.keyAuth,
    locked: (sec) => !isOpen(sec) && !sec.some((s) => "apiKeyAuth" in s),
  },
  { name: "admin", auth: (s) => `Bearer ${s.adminTokens[0]}`, exclude: SESSION_ENDING },
  {
    name: "admin, session-ending operations",
    auth: (s) => `Bearer ${s.adminTokens[1]}`,
    include: SESSION_ENDING,
  },
];

/** One `--include-name`/`--exclude-name` flag per operation (`METHOD /path`). */
function filterFlags(run: Run): string[] {
  return [
    ...(run.include ?? []).flatMap((n) => ["--include-name", n]),
    ...(run.exclude ?? []).flatMap((n) => ["--exclude-name", n]),
  ];
}

/**
 * The config file of a run: no cache or example database across runs, so a run replays
 * exactly, and no coverage phase on the operations the identity is locked out of.
 */
function configFor(run: Run, doc: Json): string {
  const locked: string[] = [];
  for (const item of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(item)) {
      if (run.locked?.(op.security as Json[])) locked.push(String(op.operationId));
    }
  }
  const lines = ["[cache]", "enabled = false", "", "[generation]", 'database = "none"', ""];
  if (locked.length) {
    lines.push("[[operations]]", `include-operation-id = ${JSON.stringify(locked)}`);
    lines.push("phases.coverage.enabled = false", "");
  }
  return lines.join("\n");
}

async function runIdentity(
  st: string,
  run: Run,
  schemaFile: string,
  baseUrl: string,
  auth: string | null,
  dir: string,
): Promise<Counts> {
  const slug = run.name.replace(/\W+/g, "-");
  const junit = join(dir, `${slug}.xml`);
  const config = join(dir, `${slug}.toml`);
  const doc = JSON.parse(await Deno.readTextFile(schemaFile));
  await Deno.writeTextFile(config, configFor(run, doc));
  const args = [
    "--config-file",
    config,
    "run",
    schemaFile,
    "--url",
    baseUrl,
    "--checks",
    CHECKS.join(","),
    "--phases",
    "examples,coverage,fuzzing",
    "--max-examples",
    String(MAX_EXAMPLES),
    "--seed",
    String(SEED),
    // One worker: Hypothesis parses lambdas with `ast`, which CPython 3.11 can fail on when
    // two threads parse at once ("AST constructor recursion depth mismatch").
    "--workers",
    "1",
    "--request-timeout",
    "30",
    "--no-color",
    "--continue-on-failure",
    "--report",
    "junit",
    "--report-junit-path",
    junit,
    ...(auth ? ["--header", `Authorization: ${auth}`] : []),
    ...filterFlags(run),
  ];
  console.log(`\n== schemathesis as ${run.name}`);
  const started = performance.now();
  const status = await new Deno.Command(st, {
    args,
    cwd: dir,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  let counts: Counts;
  try {
    counts = parseJunit(await Deno.readTextFile(junit));
  } catch {
    return { passed: 0, failed: 1, note: `schemathesis exited with ${status.code}, no report` };
  }
  if (status.code !== 0 && counts.failed === 0) {
    counts = { ...counts, failed: 1, note: `schemathesis exited with ${status.code}` };
  }
  console.log(`== ${run.name}: ${counts.passed} passed, ${counts.failed} failed (${seconds} s)`);
  return counts;
}

/** Starts a server, seeds it and runs every identity; returns the summed counts. */
export async function runConformance(st: string): Promise<Counts> {
  const dir = await Deno.makeTempDir({ prefix: "cubby-schemathesis-" });
  await using server = await startServer();
  try {
    const s = await seed(server, 2);
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    const schemaFile = join(dir, "openapi.json");
    await Deno.writeTextFile(schemaFile, JSON.stringify(withExamples(doc, s.examples, s.fields)));
    const total: Counts = { passed: 0, failed: 0 };
    const notes: string[] = [];
    for (const run of RUNS) {
      const c = await runIdentity(st, run, schemaFile, server.url, run.auth(s), dir);
      total.passed += c.passed;
      total.failed += c.failed;
      if (c.note) notes.push(`${run.name}: ${c.note}`);
    }
    return { ...total, note: notes.join("; ") || undefined };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * Runs `argv` in a new network namespace that has only loopback (see the module comment).
 * Throws, with unshare's own words, when no such namespace can be made here.
 */
export async function inLoopbackNamespace(argv: string[]): Promise<number> {
  const root = Deno.uid() === 0 ? [] : ["--map-root-user"];
  const script = 'ip link set lo up && exec "$@"';
  const probe = await new Deno.Command("unshare", {
    args: [...root, "--net", "--", "sh", "-c", "ip link set lo up"],
    stdin: "null",
  }).output();
  if (!probe.success) throw new Error(new TextDecoder().decode(probe.stderr).trim());
  const child = new Deno.Command("unshare", {
    args: [...root, "--net", "--", "sh", "-c", script, "sh", ...argv],
    env: { CUBBY_CONFORMANCE_NETNS: "1" },
    stdin: "null",
  }).spawn();
  return (await child.status).code;
}

if (import.meta.main) {
  if (Deno.env.get("CUBBY_CONFORMANCE_NETNS") !== "1") {
    const self = [Deno.execPath(), "run", "-A", join(root, "tests/conformance/schemathesis.ts")];
    try {
      Deno.exit(await inLoopbackNamespace(self));
    } catch (err) {
      console.log(`conformance: cannot make a loopback-only network namespace (unshare): ${err}`);
      console.log("0 passed, 1 failed");
      Deno.exit(1);
    }
  }
  const found = await findSchemathesis();
  if (!found.ok) {
    console.log(`conformance: ${found.why}`);
    console.log("0 passed, 1 failed");
    Deno.exit(1);
  }
  const c = await runConformance(found.path);
  if (c.note) console.log(`conformance: ${c.note}`);
  console.log(`${c.passed} passed, ${c.failed} failed`);
  Deno.exit(c.failed ? 1 : 0);
}
