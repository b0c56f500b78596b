/**
 * The conformance run's plumbing, without schemathesis itself: reading its JUnit report, the
 * summary line scripts/test.ts reads back, the seed's examples in the document, and a missing
 * schemathesis reported as a failure with its reason (never a silent skip).
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { parseJunit } from "./junit.ts";
import { withExamples } from "./seed.ts";
import { parseConformanceOutput } from "../../scripts/test.ts";

const ROOT = resolve(import.meta.dirname!, "../..");

Deno.test("parseJunit: a case with a failure, an error or a skip counts as failed", () => {
  const xml = `<?xml version="1.0"?><testsuites><testsuite name="schemathesis" tests="4">
    <testcase name="GET /api/health" time="0.1"/>
    <testcase name="GET /api/version" time="0.1"></testcase>
    <testcase name="POST /api/paste" time="0.1"><failure type="failure" message="5xx"/></testcase>
    <testcase name="PUT /api/x" time="0.1"><skipped message="no data"/></testcase>
  </testsuite></testsuites>`;
  assert.deepEqual(parseJunit(xml), { passed: 2, failed: 2, note: "skipped: PUT /api/x" });
  assert.throws(() => parseJunit("<testsuites/>"), /no test cases/);
});

Deno.test("parseConformanceOutput reads the closing line and the reason given", () => {
  assert.deepEqual(parseConformanceOutput("== admin\n348 passed, 0 failed\n"), {
    passed: 348,
    failed: 0,
    note: undefined,
  });
  assert.deepEqual(
    parseConformanceOutput("conformance: schemathesis 4 is not installed\n0 passed, 1 failed\n"),
    { passed: 0, failed: 1, note: "schemathesis 4 is not installed" },
  );
  assert.equal(parseConformanceOutput("crashed"), null);
});

Deno.test("withExamples puts the seed's values on path parameters of that name only", () => {
  const doc = {
    paths: {
      "/api/paste/{slug}": {
        get: { parameters: [{ name: "slug", in: "path" }, { name: "slug", in: "query" }] },
      },
    },
  };
  const out = withExamples(doc, { slug: ["open", "locked"] }) as typeof doc;
  const [path, query] = out.paths["/api/paste/{slug}"].get.parameters as Record<string, unknown>[];
  assert.deepEqual(path.examples, { seed0: { value: "open" }, seed1: { value: "locked" } });
  assert.equal(query.examples, undefined);
  assert.equal(
    (doc.paths["/api/paste/{slug}"].get.parameters[0] as Record<string, unknown>).examples,
    undefined,
  );
});

Deno.test("withExamples puts field values on query parameters and body fields, nested once", () => {
  const body = {
    type: "object",
    properties: {
      mount_id: { type: "string" },
      items: {
        type: "array",
        items: { type: "object", properties: { sourcePath: { type: "string" } } },
      },
    },
  };
  const doc = {
    paths: {
      "/api/fs/x": {
        post: {
          parameters: [{ name: "path", in: "query" }],
          requestBody: { content: { "application/json": { schema: body } } },
        },
      },
    },
  };
  const out = withExamples(doc, {}, { path: ["/m/a.txt"], mount_id: ["M"], sourcePath: ["/m/a"] });
  // deno-lint-ignore no-explicit-any
  const op = (out as any).paths["/api/fs/x"].post;
  assert.deepEqual(op.parameters[0].examples, { seed0: { value: "/m/a.txt" } });
  const schema = op.requestBody.content["application/json"].schema;
  assert.deepEqual(schema.properties.mount_id.examples, ["M"]);
  assert.deepEqual(schema.properties.items.items.properties.sourcePath.examples, ["/m/a"]);
});

Deno.test("a missing schemathesis fails the run with its reason", async () => {
  const home = await Deno.makeTempDir({ prefix: "cubby-no-schemathesis-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(ROOT, "tests/conformance/schemathesis.ts")],
      env: { SCHEMATHESIS_HOME: join(home, "absent"), CUBBY_CONFORMANCE_NETNS: "1" },
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 1);
    const counts = parseConformanceOutput(text);
    assert.equal(counts?.failed, 1, text);
    assert.match(
      counts?.note ?? "",
      /schemathesis [\d.]+ is not installed at .*install_schemathesis\.sh/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
