/** When a build's sources last changed, for the builds that run only when needed. */
import { join } from "node:path";

/** The newest modification time of `path`: a file's own, or that of any file under a folder. */
export async function newestMtime(path: string): Promise<number> {
  const info = await Deno.stat(path);
  if (!info.isDirectory) return info.mtime?.getTime() ?? 0;
  let newest = 0;
  for await (const e of Deno.readDir(path)) {
    newest = Math.max(newest, await newestMtime(join(path, e.name)));
  }
  return newest;
}
