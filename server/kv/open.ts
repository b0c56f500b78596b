/** Opens the KV store: a remote KV (KV Connect) when KV_URL is set, else the local file. */
import type { Config } from "../config.ts";

/** Opens KV; a locked local file gets a clear message (one process per KV file). */
export async function openKv(config: Pick<Config, "kvUrl" | "kvPath">): Promise<Deno.Kv> {
  try {
    return await Deno.openKv(config.kvUrl ?? config.kvPath);
  } catch (err) {
    if (String(err).includes("locked")) {
      throw new Error(
        `The KV file ${config.kvPath} is in use by another process. Several instances need a ` +
          `remote KV (KV_URL) and S3 storage.`,
      );
    }
    throw err;
  }
}
