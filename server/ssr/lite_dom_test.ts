import assert from "node:assert/strict";
import { join } from "node:path";
import DOMPurify, { type WindowLike } from "dompurify";
import { sanitizerCorpus } from "../../tests/helpers/sanitizer_corpus.ts";
import type { SanitizeResults } from "../../tests/helpers/sanitize_worker.ts";
import { jsdomDocumentAndFormNames } from "../../scripts/lite_dom_names.ts";
import { JSDOM_DOCUMENT_AND_FORM_NAMES } from "./lite_dom_names.ts";
import { createLiteWindow } from "./lite_window.ts";

const ROOT = join(import.meta.dirname!, "..", "..");

/** Sanitises `inputs` in a fresh worker with DOMPurify on the given DOM. */
function sanitizeIn(dom: "jsdom" | "lite", inputs: string[]): Promise<SanitizeResults> {
  const url = new URL("../../tests/helpers/sanitize_worker.ts", import.meta.url);
  const worker = new Worker(url, { type: "module" });
  return new Promise<SanitizeResults>((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(`the ${dom} worker failed: ${e.message}`));
    };
    worker.postMessage({ dom, inputs });
  }).finally(() => worker.terminate());
}

function assertSame(kind: string, inputs: string[], want: string[], got: string[]) {
  const diffs = inputs.flatMap((input, i) =>
    want[i] === got[i] ? [] : [{ input, jsdom: want[i], lite: got[i] }]
  );
  assert.deepEqual(diffs.slice(0, 5), [], `${diffs.length} of ${inputs.length} differ (${kind})`);
}

Deno.test("DOMPurify on the lite DOM gives exactly what it gives on jsdom, for a large corpus", async () => {
  const inputs = await sanitizerCorpus(ROOT, 1000);
  assert.ok(inputs.length > 2000, `corpus of ${inputs.length}`);
  const [jsdom, lite] = await Promise.all([
    sanitizeIn("jsdom", inputs),
    sanitizeIn("lite", inputs),
  ]);
  assertSame("Cubby's policy", inputs, jsdom.policy, lite.policy);
  assertSame("DOMPurify's defaults", inputs, jsdom.defaults, lite.defaults);
  // The server's sanitiser never throws (the worker reports a throw as "threw <name>").
  assert.deepEqual(
    lite.policy.filter((html, i) => html.startsWith("threw ") && !inputs[i].startsWith("threw ")),
    [],
  );
  // The corpus reaches what the policy removes and what it keeps.
  assert.ok(jsdom.policy.some((html, i) => html !== inputs[i]));
  assert.ok(
    jsdom.policy.some((html) =>
      /<a href="https:[^"]*" rel="noopener noreferrer" target="_blank">/.test(html)
    ),
  );
});

Deno.test("the lite DOM answers `in` like jsdom's document and form (DOMPurify's clobbering check)", () => {
  assert.deepEqual(
    [...JSDOM_DOCUMENT_AND_FORM_NAMES],
    jsdomDocumentAndFormNames(),
    "jsdom changed: run `deno run -A scripts/lite_dom_names.ts`",
  );
  const purify = DOMPurify(createLiteWindow() as unknown as WindowLike);
  assert.equal(purify.isSupported, true);
  assert.equal(
    purify.sanitize('<a id="cookie">1</a><a name="action">2</a><a id="ok">3</a>'),
    '<a>1</a><a>2</a><a id="ok">3</a>',
  );
});
