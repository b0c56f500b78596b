/**
 * Cumulative Layout Shift as the page itself measures it: a PerformanceObserver of
 * `layout-shift` entries, installed before any script of the page runs, sums the shifts that
 * no user input caused. `settledLayoutShift` reads the sum once the page has settled: the load
 * event, no network activity left, the fonts loaded and two frames painted after that.
 */
import type { Page } from "@playwright/test";

type ShiftWindow = { __cubbyShifts?: { value: number; sources: string[] }[] };

/** Starts recording layout shifts on every document `page` opens from now on. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    (globalThis as ShiftWindow).__cubbyShifts = shifts;
    type Shift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        const sources = (entry.sources ?? []).map((s) => {
          const node = s.node as Element | null | undefined;
          return node ? `${node.nodeName.toLowerCase()}.${node.className}` : "?";
        });
        shifts.push({ value: entry.value, sources });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The page's CLS once it has settled, with the elements each shift moved. */
export async function settledLayoutShift(
  page: Page,
): Promise<{ score: number; shifts: string[] }> {
  await page.waitForLoadState("load");
  await page.waitForLoadState("networkidle");
  const shifts = await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    return (globalThis as ShiftWindow).__cubbyShifts ?? [];
  });
  return {
    score: shifts.reduce((sum, s) => sum + s.value, 0),
    shifts: shifts.map((s) => `${s.value.toFixed(4)} ${s.sources.join(", ")}`),
  };
}
