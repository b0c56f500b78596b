import assert from "node:assert/strict";
import {
  BACKUP_MODULES,
  type BackupModule,
  effectiveModules,
  filenameFrom,
  requiredBy,
  selectionState,
  toggleModule,
} from "./backup_modules.ts";

Deno.test("selection: toggle, select-all state, dependencies added automatically", () => {
  let chosen: Set<BackupModule> = new Set();
  assert.equal(selectionState(chosen), "none");
  chosen = toggleModule(chosen, "file_management");
  assert.equal(selectionState(chosen), "some");
  assert.deepEqual(effectiveModules(chosen), ["file_management", "storage_config"]);
  assert.deepEqual(requiredBy(chosen, "storage_config"), ["file_management"]);
  chosen = toggleModule(chosen, "mount_management");
  assert.deepEqual(requiredBy(chosen, "storage_config"), ["file_management", "mount_management"]);
  chosen = toggleModule(chosen, "storage_config");
  assert.deepEqual(requiredBy(chosen, "storage_config"), [], "chosen itself");
  chosen = toggleModule(chosen, "file_management");
  assert.deepEqual(effectiveModules(chosen), ["mount_management", "storage_config"]);
  assert.equal(selectionState(new Set(BACKUP_MODULES)), "all");
});

Deno.test("the download's file name comes from Content-Disposition", () => {
  assert.equal(
    filenameFrom('attachment; filename="cubby-backup-20260102-030405.json"'),
    "cubby-backup-20260102-030405.json",
  );
  assert.equal(
    filenameFrom(null, new Date("2026-01-02T03:04:05.678Z")),
    "cubby-backup-20260102-030405.json",
  );
});
