/**
 * axe-core in the page: runs the engine's rules (WCAG 2.1 A and AA, and its best practices) on
 * what the page shows now and returns the violations as short readable lines. The engine's
 * source is evaluated through the DevTools protocol, which the page's CSP does not apply to.
 */
import type { Page } from "@playwright/test";
import axe from "axe-core";

/** One violation as a line: rule, impact, and the elements it found. */
export type AxeFinding = string;

/** Runs axe on `page` (optionally only inside `include`) and returns its violations. */
export async function axeViolations(page: Page, include?: string): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => "axe" in globalThis);
  if (!loaded) await page.evaluate(axe.source);
  const found = await page.evaluate(async (scope) => {
    const engine = (globalThis as unknown as { axe: typeof axe }).axe;
    const result = await engine.run(scope ? { include: [scope] } : document, {
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary?.split("\n")[1] ?? ""}`),
    }));
  }, include ?? null);
  return found.map((v) =>
    `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 5).join("\n    ")}`
  );
}
