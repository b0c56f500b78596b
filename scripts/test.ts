/**
 * The whole test suite, as CI runs it: build the client and bundle the server (the test servers
 * run the bundle, as `deno task start` does), run the unit and API tests
 * (`deno test`), the API conformance run (schemathesis against /api/openapi.json,
 * tests/conformance/), then the browser specs (Playwright on Debian's Chromium). Output streams
 * as it comes; the last line is `N passed, M failed`, and the exit code is non-zero if anything
 * failed.
 *
 *   deno task test               everything
 *   deno task test --unit-only   deno test only
 *   deno task test --api-only    the schemathesis run only (also `deno task test:api`)
 *   deno task test --e2e-only    Playwright only (still builds the client)
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { CHROMIUM_MISSING_MESSAGE, CHROMIUM_PATH } from "../tests/helpers/browser.ts";
import { bundleServer } from "./bundle_server.ts";

const root = resolve(import.meta.dirname!, "..");
const UNIT_DIRS = ["server/", "shared/", "client/", "cli/", "tests/"];
const PLAYWRIGHT = "npm:@playwright/test@1.65.1";
/** Upper bounds per phase, so a hung test cannot hold CI until its own timeout. */
const UNIT_TIMEOUT_MS = 40 * 60_000;
const E2E_TIMEOUT_MS = 40 * 60_000;
const API_TIMEOUT_MS = 20 * 60_000;
const ONLY_FLAGS = ["--unit-only", "--api-only", "--e2e-only"];

type Counts = { passed: number; failed: number; note?: string };

const args = new Set(Deno.args);
const unknown = [...args].filter((a) => !ONLY_FLAGS.includes(a));
const only = ONLY_FLAGS.filter((f) => args.has(f));
if (unknown.length || only.length > 1) {
  console.error(
    `usage: deno task test [--unit-only | --api-only | --e2e-only]   (got: ${Deno.args.join(" ")})`,
  );
  Deno.exit(2);
}
const runUnit = only.length === 0 || args.has("--unit-only");
const runApi = only.length === 0 || args.has("--api-only");
const runE2e = only.length === 0 || args.has("--e2e-only");

/** Runs a command in the repository root, streaming its output; returns exit code and stdout. */
async function run(
  cmd: string[],
  { env = {}, capture = false, timeoutMs = 10 * 60_000 } = {},
): Promise<{ code: number; stdout: string; timedOut: boolean }> {
  console.log(`\n$ ${cmd.join(" ")}`);
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd: root,
    env,
    stdin: "null",
    stdout: capture ? "piped" : "inherit",
    stderr: "inherit",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    console.error(`\n${cmd.join(" ")} ran longer than ${timeoutMs / 60_000} min; stopping it`);
    child.kill("SIGKILL");
  }, timeoutMs);
  let stdout = "";
  if (capture) {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      await Deno.stdout.write(chunk);
      stdout += decoder.decode(chunk, { stream: true });
    }
  }
  const status = await child.status;
  clearTimeout(timer);
  return { code: status.code, stdout, timedOut };
}

// deno-lint-ignore no-control-regex
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

/** Reads deno test's closing `ok | 12 passed (3 steps) | 0 failed` line. */
export function parseDenoTestSummary(output: string): Counts | null {
  const lines = stripAnsi(output).split("\n").reverse();
  for (const line of lines) {
    const m = line.match(/^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/);
    if (m) return { passed: Number(m[1]), failed: Number(m[2]) };
  }
  return null;
}

/** Reads the counts from Playwright's JSON report; flaky tests passed on retry. */
export function parsePlaywrightReport(report: {
  stats?: { expected?: number; unexpected?: number; flaky?: number };
  errors?: unknown[];
}): Counts {
  const s = report.stats ?? {};
  const errors = report.errors?.length ?? 0;
  return {
    passed: (s.expected ?? 0) + (s.flaky ?? 0),
    failed: (s.unexpected ?? 0) + errors,
    note: errors ? `${errors} error(s) outside tests (global setup, config or a spec file)` : "",
  };
}

/** Installs npm dependencies into node_modules (Playwright's specs resolve from there). */
async function installDependencies(): Promise<boolean> {
  const { code } = await run([Deno.execPath(), "install"]);
  return code === 0;
}

async function buildClient(): Promise<boolean> {
  const { code } = await run([Deno.execPath(), "run", "-A", "scripts/build.ts"]);
  return code === 0;
}

/**
 * Copies dist/ to a temporary directory that the test servers serve (CUBBY_DIST_DIR), so that
 * a rebuild during the run (`deno task dev`, another test run in the same checkout) cannot pull
 * the bundle from under the browser tests. Returns null if dist/ changed while being copied.
 */
async function snapshotDist(): Promise<string | null> {
  const dir = await Deno.makeTempDir({ prefix: "cubby-dist-" });
  try {
    await copyTree(join(root, "dist"), dir);
    const manifest = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
    const complete = [manifest.js, ...manifest.files].every((f: string) =>
      existsSync(join(dir, f))
    );
    if (complete) return dir;
  } catch {
    // dist/ was replaced while we copied it
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  return null;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function runUnitTests(): Promise<Counts> {
  const { code, stdout, timedOut } = await run(
    [Deno.execPath(), "test", "-A", "--parallel", "--ignore=tests/e2e", ...UNIT_DIRS],
    { capture: true, timeoutMs: UNIT_TIMEOUT_MS },
  );
  const counts = parseDenoTestSummary(stdout);
  if (!counts) {
    const why = timedOut ? "timed out" : `exited with ${code} before its summary`;
    return { passed: 0, failed: 1, note: `deno test ${why} (type errors or a crash?)` };
  }
  if (code !== 0 && counts.failed === 0) {
    return { ...counts, failed: 1, note: `deno test exited with ${code}` };
  }
  return counts;
}

/**
 * Reads the conformance run's output: its closing `N passed, M failed` line, and the reason it
 * gives (`conformance: ...`) when it could not run, such as a missing schemathesis.
 */
export function parseConformanceOutput(output: string): Counts | null {
  const text = stripAnsi(output);
  const lines = text.split("\n").reverse();
  const why = text.match(/^conformance: (.+)$/m)?.[1];
  for (const line of lines) {
    const m = line.match(/^(\d+) passed, (\d+) failed$/);
    if (m) return { passed: Number(m[1]), failed: Number(m[2]), note: why };
  }
  return null;
}

async function runConformance(): Promise<Counts> {
  const { code, stdout, timedOut } = await run(
    [Deno.execPath(), "run", "-A", "tests/conformance/schemathesis.ts"],
    { capture: true, timeoutMs: API_TIMEOUT_MS },
  );
  const counts = parseConformanceOutput(stdout);
  if (!counts) {
    const why = timedOut ? "timed out" : `exited with ${code} before its summary`;
    return { passed: 0, failed: 1, note: `the schemathesis run ${why}` };
  }
  if (code !== 0 && counts.failed === 0) {
    return { ...counts, failed: 1, note: `the schemathesis run exited with ${code}` };
  }
  return counts;
}

async function runBrowserTests(): Promise<Counts> {
  const reportFile = await Deno.makeTempFile({ prefix: "cubby-e2e-", suffix: ".json" });
  try {
    const { code, timedOut } = await run([Deno.execPath(), "run", "-A", PLAYWRIGHT, "test"], {
      env: { CUBBY_E2E_JSON: reportFile },
      timeoutMs: E2E_TIMEOUT_MS,
    });
    let counts: Counts;
    try {
      counts = parsePlaywrightReport(JSON.parse(await Deno.readTextFile(reportFile)));
    } catch {
      const why = timedOut ? "timed out" : `exited with ${code}`;
      return { passed: 0, failed: 1, note: `Playwright ${why} without a report` };
    }
    if (code !== 0 && counts.failed === 0) {
      return { ...counts, failed: 1, note: `Playwright exited with ${code}` };
    }
    return counts;
  } finally {
    await Deno.remove(reportFile).catch(() => {});
  }
}

if (import.meta.main) {
  if (runE2e && !existsSync(CHROMIUM_PATH)) {
    console.error(`\n${CHROMIUM_MISSING_MESSAGE}\n(or run \`deno task test --unit-only\`)\n`);
    console.log("0 passed, 1 failed");
    Deno.exit(1);
  }
  const started = performance.now();
  const results: [string, Counts][] = [];
  if (!await installDependencies()) {
    results.push(["deno install", { passed: 0, failed: 1, note: "failed" }]);
  }
  let distDir: string | null = null;
  for (let attempt = 0; attempt < 3 && !distDir; attempt++) {
    if (!await buildClient()) break;
    distDir = await snapshotDist();
  }
  if (!distDir) results.push(["build", { passed: 0, failed: 1, note: "no complete dist/" }]);
  else Deno.env.set("CUBBY_DIST_DIR", distDir);
  // The test servers run what `deno task start` runs: the bundled server, bundled once here.
  const bundleDir = await Deno.makeTempDir({ prefix: "cubby-server-bundle-" });
  try {
    Deno.env.set("CUBBY_SERVER_BUNDLE", await bundleServer(bundleDir));
  } catch (err) {
    console.error(err);
    results.push(["server bundle", { passed: 0, failed: 1, note: "deno bundle failed" }]);
  }
  try {
    if (runUnit) results.push(["unit and API tests", await runUnitTests()]);
    if (runApi) results.push(["API conformance (schemathesis)", await runConformance()]);
    if (runE2e && distDir) results.push(["browser tests", await runBrowserTests()]);
  } finally {
    if (distDir) await Deno.remove(distDir, { recursive: true }).catch(() => {});
    await Deno.remove(bundleDir, { recursive: true }).catch(() => {});
  }

  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  console.log(`\nSummary (${minutes} min):`);
  for (const [name, c] of results) {
    console.log(`  ${name}: ${c.passed} passed, ${c.failed} failed${c.note ? ` (${c.note})` : ""}`);
  }
  const passed = results.reduce((n, [, c]) => n + c.passed, 0);
  const failed = results.reduce((n, [, c]) => n + c.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  Deno.exit(failed > 0 ? 1 : 0);
}
