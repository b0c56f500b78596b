/**
 * A real Deno KV file in a temporary directory, for tests of code that takes a `Deno.Kv`. The
 * handle is held to KV Connect's limits (kv_limits.ts), like every test app's.
 */
import { join } from "node:path";
import { withKvConnectLimits } from "./kv_limits.ts";

/** Runs `fn` on a KV file in a fresh temporary directory, then closes it and removes the directory. */
export async function withTempKv(
  fn: (kv: Deno.Kv) => Promise<void>,
  prefix = "cubby-kv-",
): Promise<void> {
  await using t = await tempKv(prefix);
  await fn(t.kv);
}

/** A temporary KV store, `dir` its directory (free for other files); disposing closes and removes both. */
export type TempKv = { kv: Deno.Kv; dir: string } & AsyncDisposable;

/** Opens a KV file in a fresh temporary directory, for an `await using` scope. */
export async function tempKv(prefix = "cubby-kv-"): Promise<TempKv> {
  const dir = await Deno.makeTempDir({ prefix });
  const raw = await Deno.openKv(join(dir, "kv"));
  return {
    kv: withKvConnectLimits(raw),
    dir,
    [Symbol.asyncDispose]: async () => {
      // A test may have closed it already (to see how code copes with KV gone).
      try {
        raw.close();
      } catch { /* closed */ }
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
