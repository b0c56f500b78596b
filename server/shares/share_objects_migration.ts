/**
 * Migration 2: moves the objects of file shares written before the reserved area existed
 * (`uploads/…`) to `.cubby-shares/…`, where mounts cannot reach them (storage/share_area.ts).
 *
 * Only objects the share owns are moved; a share of a mount file points at the user's own file,
 * which stays where it is. Each share is moved and then its record is switched, so a crash in
 * between is repaired by the next run: the object is found at its new place and only the
 * record is switched. The migration is recorded once every share is done. A share whose object
 * is gone from both places is logged and left as it is (its link answered 404 before too); one
 * whose storage cannot be reached keeps the migration open, so the next start tries again.
 * A restore runs it again (`evenIfRecorded`): an older backup still names the legacy paths,
 * and its records are switched to where the objects are now.
 */
import type { FileRecord, FileRepo } from "./file_repo.ts";
import { keys } from "../kv/keys.ts";
import { isReservedKey, SHARE_OBJECTS_FOLDER } from "../storage/share_area.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";

export const SHARE_OBJECTS_MIGRATION = { n: 2, name: "share objects into .cubby-shares" };
const LEGACY_PREFIX = "uploads/";

/** Where a legacy share object moves to, or null when it stays. */
export function migratedPath(rec: FileRecord): string | null {
  if (rec.owns_object === false || isReservedKey(rec.storage_path)) return null;
  if (!rec.storage_path.startsWith(LEGACY_PREFIX)) return null;
  return `${SHARE_OBJECTS_FOLDER}/${rec.storage_path.slice(LEGACY_PREFIX.length)}`;
}

/**
 * Runs migration 2 unless recorded; returns how many shares moved. Never throws: failures are
 * logged and leave the migration open for the next start.
 */
export async function migrateShareObjects(
  kv: Deno.Kv,
  repo: FileRepo,
  storage: StorageConfigService,
  log: (msg: string) => void,
  opts: { evenIfRecorded?: boolean } = {},
): Promise<number> {
  const recorded = (await kv.get(keys.migrations(SHARE_OBJECTS_MIGRATION.n))).versionstamp !== null;
  if (recorded && !opts.evenIfRecorded) return 0;
  let moved = 0;
  let failed = 0;
  for (const listed of await repo.list(null)) {
    const to = migratedPath(listed);
    if (!to) continue;
    try {
      const driver = await storage.driverFor(await storage.getRecord(listed.storage_config_id));
      if (await driver.head(listed.storage_path)) await driver.move(listed.storage_path, to);
      else if (!await driver.head(to)) {
        console.error(`File share ${listed.id}: object ${listed.storage_path} is missing`);
        continue;
      }
      for (let attempt = 0;; attempt++) {
        const entry = await repo.get(listed.id);
        if (!entry.value || entry.value.storage_path === to) break;
        const next = { ...entry.value, storage_path: to };
        if (await repo.update(entry.value, next, entry.versionstamp!, false) === "ok") break;
        if (attempt >= 5) throw new Error("the record keeps changing");
      }
      moved++;
    } catch (err) {
      failed++;
      console.error(`Could not move the object of file share ${listed.id}:`, err);
    }
  }
  if (failed === 0) {
    await kv.set(keys.migrations(SHARE_OBJECTS_MIGRATION.n), {
      name: SHARE_OBJECTS_MIGRATION.name,
      applied_at: new Date().toISOString(),
    });
    if (moved > 0) {
      log(`Migration 2 applied: ${moved} share object(s) moved into ${SHARE_OBJECTS_FOLDER}/`);
    }
  } else {
    log(`Migration 2 incomplete: ${failed} share object(s) could not be moved; retried next start`);
  }
  return moved;
}
