/**
 * How the benchmarks start Cubby: `bundle` (the default) runs what `deno task start` runs, the
 * bundled server in dist-server/ (built first when a source is newer); `source` runs main.ts.
 */
import { join } from "node:path";
import {
  BUNDLE_DIR,
  BUNDLE_ENTRY,
  bundleServer,
  isBundleUpToDate,
} from "../scripts/bundle_server.ts";

export type ServerCommand = { script: string; flags: string[] };

/** The script and `deno run` flags for `kind`, with `--v8-flags=<v8Flags>` when given. */
export async function serverCommand(kind: string, v8Flags = ""): Promise<ServerCommand> {
  const flags = v8Flags ? [`--v8-flags=${v8Flags}`] : [];
  if (kind === "source") return { script: "main.ts", flags };
  if (kind !== "bundle") throw new Error(`--server is "bundle" or "source", not "${kind}"`);
  if (!await isBundleUpToDate()) await bundleServer();
  return {
    script: join(BUNDLE_DIR, BUNDLE_ENTRY),
    flags: ["--unstable-kv", "--unstable-cron", ...flags],
  };
}

/**
 * Makes the servers that tests/helpers/server.ts starts in this process run the bundle (the
 * benchmarks that start them that way), unless CUBBY_SERVER_BUNDLE names one already.
 */
export async function serveFromBundle(): Promise<void> {
  if (!Deno.env.get("CUBBY_SERVER_BUNDLE")) {
    Deno.env.set("CUBBY_SERVER_BUNDLE", (await serverCommand("bundle")).script);
  }
}
