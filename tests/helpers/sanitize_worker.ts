/**
 * A worker that sanitises a list of HTML strings with DOMPurify on jsdom or on the server's
 * lite DOM (server/ssr/lite_window.ts), with Cubby's policy and with DOMPurify's defaults.
 * Each DOM runs in a worker of its own: DOMPurify keeps state between calls in module-level
 * regular expressions (`lastIndex` of its /g probes), so both must see the same calls in the
 * same order from a fresh module to give comparable output.
 */
/// <reference lib="deno.worker" />
import DOMPurify, { type WindowLike } from "dompurify";
import { createSanitizer } from "../../shared/markdown.ts";
import { createLiteWindow } from "../../server/ssr/lite_window.ts";

/** What the worker answers: per input, the output or the name of what it threw. */
export type SanitizeResults = { policy: string[]; defaults: string[] };

self.onmessage = async (e: MessageEvent<{ dom: "jsdom" | "lite"; inputs: string[] }>) => {
  const { dom, inputs } = e.data;
  const window = dom === "jsdom"
    ? new (await import("jsdom")).JSDOM("").window
    : createLiteWindow();
  const policy = createSanitizer(DOMPurify(window as unknown as WindowLike));
  const plain = DOMPurify(window as unknown as WindowLike);
  const run = (f: (html: string) => string) =>
    inputs.map((html) => {
      try {
        return f(html);
      } catch (err) {
        return `threw ${(err as Error).name}`;
      }
    });
  const results: SanitizeResults = {
    policy: run(policy),
    defaults: run((html) => plain.sanitize(html) as string),
  };
  self.postMessage(results);
};
