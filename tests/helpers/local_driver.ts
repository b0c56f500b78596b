/** A local storage driver on a temporary directory, for the driver's own tests. */
import { join } from "node:path";
import { LocalDriver, type LocalDriverOptions } from "../../server/storage/local.ts";

/**
 * Runs `fn` with a driver rooted at `<temp>/root` (the driver makes it when it first writes),
 * then removes the temporary directory. `opts` replaces the defaults (secret "s", config "c1").
 */
export async function withLocalDriver(
  fn: (d: LocalDriver, root: string) => Promise<void>,
  opts: Partial<Omit<LocalDriverOptions, "root">> = {},
): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "cubby-local-" });
  const root = join(base, "root");
  const d = new LocalDriver({ root, signingSecret: "s", configId: "c1", urlPrefix: "/x", ...opts });
  try {
    await fn(d, root);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}
