/**
 * Temp files that uploads write before they are complete: the local driver's `.cubby-tmp/`
 * and the upload spool under `DATA_DIR/spool/`. A write registers its file while it runs;
 * a process killed mid-upload (kill -9) leaves the file behind, and `reclaimStaleTemp`, run at
 * start and by the sweeper, removes it.
 *
 * A file is stale when no upload of this process holds it AND it has not been written to for
 * `TEMP_STALE_MS`. The first rule protects this process's own uploads, however slow. The age
 * rule protects anything another process may still be writing (a second process on the same
 * root, a CLI next to the server): a live writer touches the file's mtime with every chunk, so
 * only a file nobody wrote to for an hour is taken.
 */
import { join } from "node:path";

/** How long a temp file must sit unwritten before another process's file counts as stale. */
export const TEMP_STALE_MS = 60 * 60 * 1000;

const held = new Set<string>();

/** The folder upload forms spool their file to, under the data directory. */
export function spoolDirOf(dataDir: string): string {
  return join(dataDir, "spool");
}

/** Marks a temp file as written by a live upload of this process. */
export function holdTemp(path: string): void {
  held.add(path);
}

/** Forgets a temp file (renamed into place or removed). */
export function releaseTemp(path: string): void {
  held.delete(path);
}

/** Whether a live upload of this process holds `path`. */
export function isTempHeld(path: string): boolean {
  return held.has(path);
}

/**
 * Removes the stale files directly in `dir` (see the module comment); returns how many. A
 * missing folder counts as empty; other errors are thrown.
 */
export async function reclaimStaleTemp(
  dir: string,
  opts: { now?: number; olderThanMs?: number } = {},
): Promise<number> {
  const cutoff = (opts.now ?? Date.now()) - (opts.olderThanMs ?? TEMP_STALE_MS);
  let removed = 0;
  try {
    const real = await Deno.realPath(dir); // writers may have registered either spelling
    for await (const entry of Deno.readDir(real)) {
      if (!entry.isFile) continue;
      const path = join(real, entry.name);
      if (held.has(path) || held.has(join(dir, entry.name))) continue;
      const info = await Deno.lstat(path).catch(() => null);
      const written = info?.mtime?.getTime() ?? 0;
      if (!info || written > cutoff) continue;
      await Deno.remove(path).then(() => removed++, () => {});
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return 0;
    throw err;
  }
  return removed;
}
