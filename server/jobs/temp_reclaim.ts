/**
 * Reclaims the temp files that uploads interrupted by a crash (kill -9) leave behind: the
 * `.cubby-tmp/` folder of every local storage config and the upload-form spool under
 * `DATA_DIR/spool/`. What counts as stale is decided in `storage/temp_files.ts`. Each instance
 * runs this for its own disks at start and on every sweeper tick, lease or not.
 */
import { join } from "node:path";
import { TMP_DIR } from "../storage/local_paths.ts";
import { reclaimStaleTemp, spoolDirOf } from "../storage/temp_files.ts";
import type { Services } from "../container.ts";

/** The folders that hold upload temp files on this instance. */
export async function tempDirsOf(services: Services): Promise<string[]> {
  const roots = await services.storageConfigs.localRoots();
  return [spoolDirOf(services.config.dataDir), ...roots.map((root) => join(root, TMP_DIR))];
}

/** Removes stale upload temp files; returns how many. Never throws (logs instead). */
export async function reclaimTempFiles(
  services: Services,
  opts: { now?: number } = {},
): Promise<number> {
  let removed = 0;
  for (const dir of await tempDirsOf(services).catch(() => [])) {
    try {
      removed += await reclaimStaleTemp(dir, opts);
    } catch (err) {
      console.error(`Could not reclaim temp files in ${dir}:`, err);
    }
  }
  return removed;
}
