/**
 * A real Deno KV file in a temporary directory, for tests of code that takes a `Deno.Kv`. The
 * handle is held to KV Connect's limits (kv_limits.ts), like every test app's.
 */
import { join } from "node:path";
import { withKvConnectLimits } from "./kv_limits.ts";
import { type Calls, countingKv } from "./counting_kv.ts";

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

/**
 * Runs `fn` on a KV file in a fresh temporary directory whose calls are counted (counting_kv.ts),
 * held to a local file's limits, not KV Connect's (for code that sizes its commits by them), with
 * the file's path for a second handle. Closes it and removes the directory after.
 */
export async function withCountedKv(
  fn: (kv: Deno.Kv, calls: Calls, path: string) => Promise<void>,
  prefix = "cubby-kv-",
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix });
  const path = join(dir, "kv.sqlite");
  const kv = await Deno.openKv(path);
  const calls: Calls = {};
  try {
    await fn(countingKv(kv, calls), calls, path);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}
