/** Timing and summary helpers the benches share. */

/** Runs `fn` once and returns how long it took, in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The `p`th percentile (nearest rank) of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The median (lower middle for an even count) of a list in any order. */
export const median = (xs: number[]): number => percentile([...xs].sort((a, b) => a - b), 50);

/** Milliseconds with two, one or no decimals, by size. */
export const ms = (x: number): string =>
  x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);
