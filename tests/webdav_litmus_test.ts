/**
 * WebDAV conformance: Debian's `litmus` (suites basic, copymove, props, locks, http) against
 * the real server's `/dav/<mount>/` on a local mount created through the API. Every test must
 * pass; the counts are recorded in docs/WEBDAV.md.
 */
import assert from "node:assert/strict";
import { TEST_ADMIN } from "./helpers/server.ts";
import { davClientTest } from "./helpers/server_api.ts";

/** Tests per suite in Debian's litmus 0.13, all of which must pass. */
const EXPECTED: Record<string, number> = {
  basic: 16,
  copymove: 13,
  props: 30,
  locks: 41,
  http: 4,
};
const LITMUS_TIMEOUT_MS = 4 * 60_000;

/** Parses litmus' `<- summary for 'suite': of N tests run: P passed, F failed.` lines. */
function parseLitmus(
  out: string,
): Map<string, { run: number; passed: number; failed: number }> {
  const suites = new Map<string, { run: number; passed: number; failed: number }>();
  for (
    const m of out.matchAll(
      /<- summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g,
    )
  ) {
    suites.set(m[1], { run: Number(m[2]), passed: Number(m[3]), failed: Number(m[4]) });
  }
  return suites;
}

davClientTest(
  "litmus: basic, copymove, props, locks and http all pass against /dav/<mount>/",
  "/usr/bin/litmus",
  "/litmus",
  async (server, cwd) => {
    const child = new Deno.Command("litmus", {
      args: ["-k", `${server.url}/dav/litmus/`, TEST_ADMIN.username, TEST_ADMIN.password],
      env: { TESTS: "basic copymove props locks http", TEST_QUIET: "" },
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(LITMUS_TIMEOUT_MS),
    }).spawn();
    const { stdout, stderr } = await child.output();
    const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    if (Deno.env.get("CUBBY_LITMUS_LOG") === "1") console.log(out);
    const suites = parseLitmus(out);
    for (const [suite, expected] of Object.entries(EXPECTED)) {
      const s = suites.get(suite);
      assert.ok(s, `litmus suite ${suite} did not report a summary:\n${out}`);
      assert.equal(s.failed, 0, `litmus ${suite}: ${s.failed} failed:\n${out}`);
      assert.equal(
        s.passed,
        expected,
        `litmus ${suite}: ${s.passed}/${expected} passed:\n${out}`,
      );
    }
  },
);
