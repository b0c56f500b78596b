/** Counts from schemathesis's JUnit report: one test case per operation. */

/** Passed and failed operations (plus why, when the report says more). */
export type Counts = { passed: number; failed: number; note?: string };

/**
 * Reads a JUnit XML report. A case with a `<failure>` or `<error>` failed; a `<skipped>` one
 * counts as failed too, because an operation the fuzzer could not exercise is not covered.
 */
export function parseJunit(xml: string): Counts {
  const cases = xml.match(/<testcase\b[\s\S]*?(?:\/>|<\/testcase>)/g) ?? [];
  if (cases.length === 0) throw new Error("no test cases in the JUnit report");
  let failed = 0;
  const skipped: string[] = [];
  for (const c of cases) {
    if (/<(failure|error)\b/.test(c)) failed++;
    else if (/<skipped\b/.test(c)) {
      failed++;
      skipped.push(c.match(/\bname="([^"]*)"/)?.[1] ?? "?");
    }
  }
  const note = skipped.length ? `skipped: ${skipped.join(", ")}` : undefined;
  return { passed: cases.length - failed, failed, note };
}
