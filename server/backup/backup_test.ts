/** BackupService between two real apps: what one backs up, another restores. */
import assert from "node:assert/strict";
import { backupFilename } from "./backup.ts";
import { createTestApp } from "../../tests/helpers/app.ts";
import { AppError } from "../errors.ts";
import { adminAuth } from "../services/auth.ts";

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return `${err.status} ${err.code}`;
}

Deno.test("backup file names are the creation time in UTC", () => {
  assert.equal(backupFilename("2026-03-04T05:06:07.890Z"), "cubby-backup-20260304-050607.json");
});

Deno.test("backup: a module brings what it depends on; a restore elsewhere brings it all back", async () => {
  await using a = await createTestApp();
  await a.createKey({ text: true }, { name: "ci" });
  await a.createMount("/photos", { name: "photos" });
  const { file } = await a.services.backup.create(["mount_management"]);
  assert.ok(file.metadata.modules.includes("storage_config"), "mounts need their storage");
  assert.equal(file.metadata.type, "partial");
  const text = JSON.stringify(file);
  assert.deepEqual(
    await a.services.backup.inspect(text),
    (await a.services.backup.read(text)).info,
  );

  await using b = await createTestApp();
  // b keeps its mount table in memory now; the restore must move it (mount_repo.ts).
  assert.deepEqual(await b.services.mounts.list(adminAuth()), []);
  const report = await b.services.backup.restore(text, "overwrite");
  assert.equal(report.modules.mount_management?.restored, 1);
  const mounts = await b.services.mounts.list(adminAuth());
  assert.deepEqual(mounts.map((m) => m.mount_path), ["/photos"]);
  // Merging the same file again collides with what is there: nothing is doubled.
  const merged = await b.services.backup.restore(text, "merge");
  assert.equal(merged.modules.mount_management?.restored, 0);
  assert.equal((await b.services.mounts.list(adminAuth())).length, 1);
});

Deno.test("backup: a file that fails its checks changes nothing", async () => {
  await using a = await createTestApp();
  await a.createKey({ text: true }, { name: "one" });
  const { file } = await a.services.backup.create(["key_management"]);
  file.data.key_management![0].name = "tampered";
  await using b = await createTestApp();
  await b.createKey({ text: true }, { name: "kept" });
  assert.equal(
    await codeOf(b.services.backup.restore(JSON.stringify(file), "overwrite")),
    "400 backup_checksum_mismatch",
  );
  assert.equal(
    await codeOf(b.services.backup.restore("[]", "overwrite")),
    "400 backup_invalid_file",
  );
  assert.equal(
    await codeOf(b.services.backup.restore('{"metadata":{"app":"x"},"data":{}}', "merge")),
    "400 backup_invalid_file",
  );
  assert.deepEqual((await b.services.apiKeys.list()).map((k) => k.name), ["kept"]);
});
