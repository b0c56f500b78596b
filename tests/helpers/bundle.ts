/** The bundled server (scripts/bundle_server.ts) for tests that must run what `deno task start` runs. */
import { bundleServer } from "../../scripts/bundle_server.ts";

/** CUBBY_SERVER_BUNDLE (bundled once by scripts/test.ts), else a new bundle in `dir`. */
export async function bundledServer(dir: string): Promise<string> {
  return Deno.env.get("CUBBY_SERVER_BUNDLE") || await bundleServer(dir);
}
