/** The built client's scripts and stylesheets, as dist/manifest.json lists them. */
import { join } from "node:path";
import type { Assets } from "./document.ts";

/** The built client's two entries: the app's, and the share pages' (client/share_main.tsx). */
export type BuiltAssets = { app: Assets; share: Assets };

/**
 * Reads dist/manifest.json written by the build: each entry's script, its stylesheets and each
 * language's texts chunk. Without a build, pages get no scripts; a build without the share
 * entry (older than it) throws, so share pages never go out without their script.
 */
export async function loadAssets(distDir: string): Promise<BuiltAssets> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(distDir, "manifest.json"));
  } catch {
    const none = { js: null, css: [], languages: {} };
    return { app: none, share: none };
  }
  const m = JSON.parse(text) as Assets & { share?: Assets };
  if (m.js && !m.share?.js) {
    throw new Error(`${join(distDir, "manifest.json")} has no share entry: run deno task build`);
  }
  const pick = (a: Assets): Assets => ({
    js: a.js,
    css: a.css ?? [],
    languages: a.languages ?? {},
  });
  return { app: pick(m), share: pick(m.share ?? { js: null, css: [] }) };
}
