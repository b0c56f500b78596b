/** Opens the KV store: a remote KV (KV Connect) when KV_URL is set, else the local file. */
import type { Config } from "../config.ts";
import { withCallTimeout } from "./call_timeout.ts";
import { localFile } from "./commit_groups.ts";

/**
 * Opens KV; a locked local file gets a clear message (one process per KV file). Calls to a
 * remote KV are limited to `kvTimeoutMs` (call_timeout.ts).
 */
export async function openKv(
  config: Pick<Config, "kvUrl" | "kvPath" | "kvTimeoutMs">,
): Promise<Deno.Kv> {
  try {
    if (config.kvUrl) return withCallTimeout(await Deno.openKv(config.kvUrl), config.kvTimeoutMs);
    return localFile(await Deno.openKv(config.kvPath));
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
