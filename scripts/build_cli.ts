/**
 * Bundles the command-line client (cli/cubby.ts, with the format modules of shared/e2e) into one
 * self-contained script that the server serves at /cli.ts, so `deno run https://host/cli.ts`
 * needs nothing else (no jsr:, no npm:). The script is plain JavaScript; the server sends it as
 * such, which Deno honours whatever the URL's extension.
 */
import * as esbuild from "esbuild";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname!, "..");

/** Writes the bundled client to `outFile`; returns its size in bytes. */
export async function buildCli(outFile: string): Promise<number> {
  const result = await esbuild.build({
    entryPoints: [join(root, "cli/cubby.ts")],
    outfile: outFile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: ["es2022"],
    minify: false,
    legalComments: "none",
    logLevel: "warning",
    banner: {
      js: "// Cubby command-line client for end-to-end encrypted shares (docs/E2E.md).\n" +
        "// Built from cli/cubby.ts. Usage: deno run --allow-net https://<host>/cli.ts --help",
    },
    metafile: true,
  });
  return Object.values(result.metafile!.outputs)[0].bytes;
}

if (import.meta.main) {
  const out = Deno.args[0] ?? join(root, "dist/cli.ts");
  console.log(`wrote ${out} (${await buildCli(out)} bytes)`);
  await esbuild.stop();
}
