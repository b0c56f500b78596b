/** A real Deno KV file in a temporary directory, for tests of code that takes a `Deno.Kv`. */
import { join } from "node:path";

/** Runs `fn` on a KV file in a fresh temporary directory, then closes it and removes the directory. */
export async function withTempKv(
  fn: (kv: Deno.Kv) => Promise<void>,
  prefix = "cubby-kv-",
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix });
  const kv = await Deno.openKv(join(dir, "kv"));
  try {
    await fn(kv);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}
