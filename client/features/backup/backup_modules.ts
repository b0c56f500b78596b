/** The module selection of the backup screen: choices, select all, automatic dependencies. */
import {
  BACKUP_MODULES,
  type BackupModule,
  MODULE_DEPENDENCIES,
  withDependencies,
} from "../../../shared/schemas/backup.ts";

export { BACKUP_MODULES, type BackupModule };

/** The selection with one module switched on or off. */
export function toggleModule(
  chosen: ReadonlySet<BackupModule>,
  m: BackupModule,
): Set<BackupModule> {
  const next = new Set(chosen);
  if (next.has(m)) next.delete(m);
  else next.add(m);
  return next;
}

/** "all", "none" or "some": the state of the select-all box. */
export function selectionState(chosen: ReadonlySet<BackupModule>): "all" | "none" | "some" {
  if (chosen.size === 0) return "none";
  return BACKUP_MODULES.every((m) => chosen.has(m)) ? "all" : "some";
}

/** What the backup will hold: the chosen modules plus their dependencies, in list order. */
export function effectiveModules(chosen: ReadonlySet<BackupModule>): BackupModule[] {
  return withDependencies([...chosen]);
}

/** The chosen modules that need `m`, when `m` is not chosen itself (it is then added). */
export function requiredBy(chosen: ReadonlySet<BackupModule>, m: BackupModule): BackupModule[] {
  if (chosen.has(m)) return [];
  return BACKUP_MODULES.filter((c) => chosen.has(c) && MODULE_DEPENDENCIES[c].includes(m));
}

/** The file name from a Content-Disposition header, else `cubby-backup-<UTC time>.json`. */
export function filenameFrom(disposition: string | null, now = new Date()): string {
  const m = disposition?.match(/filename="?([^";]+)"?/);
  if (m) return m[1];
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `cubby-backup-${stamp}.json`;
}
