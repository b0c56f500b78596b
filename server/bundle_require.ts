/**
 * Gives the bundled server (the single binary, `deno task start`'s bundle) a global `require`. The bundler turns each `require("node:…")`
 * of the CommonJS packages (busboy, the AWS SDK's helpers…) into a call that uses a
 * global `require` when one exists and throws otherwise; Deno has none in ES modules. Imported
 * first by the bundles' entries (main_binary.ts, main_bundle.ts), so it runs before any bundled
 * package.
 */
import { createRequire } from "node:module";

/** A `require` for a bundle: Node's, but `resolve` of a file the bundle lacks returns its name. */
export function bundleRequire(base: NodeJS.Require): NodeJS.Require {
  const resolve = (id: string, options?: { paths?: string[] }) => {
    try {
      return base.resolve(id, options);
    } catch {
      // A package may resolve, when it loads, a file it uses only on a path the server never
      // takes (jsdom's sync-XHR worker script was one): the name is enough.
      return id;
    }
  };
  return Object.assign((id: string) => base(id), base, {
    resolve: Object.assign(resolve, { paths: base.resolve.paths }),
  });
}

const global = globalThis as { require?: NodeJS.Require };
global.require ??= bundleRequire(createRequire(import.meta.url));
