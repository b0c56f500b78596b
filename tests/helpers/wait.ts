/** Waiting for something another process or instance does, by polling for it. */

/** Polls `probe` until it returns a value other than null, for at most `ms`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null>,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
