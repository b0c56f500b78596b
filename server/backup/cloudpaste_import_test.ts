/** Reading a CloudPaste backup into Cubby's records (tests/fixtures/cloudpaste_backup.json). */
import assert from "node:assert/strict";
import {
  cloudPasteChecksum,
  importCloudPaste,
  importCloudPasteSetting,
  isCloudPasteBackup,
} from "./cloudpaste_import.ts";
import { MODULE_SCHEMAS } from "./backup_format.ts";
import { AppError } from "../errors.ts";
import type { BackupModule } from "../../shared/schemas/backup.ts";

type Json = Record<string, unknown>;
const FIXTURE: { metadata: Json; data: Record<string, Json[]> } = JSON.parse(
  await Deno.readTextFile(new URL("../../tests/fixtures/cloudpaste_backup.json", import.meta.url)),
);

async function codeOf(p: Promise<unknown>) {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return [err.code, err.details?.path];
}

Deno.test("CloudPaste files are told apart by their tables and their short checksum", async () => {
  assert.equal(isCloudPasteBackup(FIXTURE.metadata, FIXTURE.data), true);
  assert.equal(isCloudPasteBackup(FIXTURE.metadata, { ...FIXTURE.data, other: [] }), false);
  assert.equal(isCloudPasteBackup({}, FIXTURE.data), false);
  assert.equal(isCloudPasteBackup(FIXTURE.metadata, {}), false);
  assert.equal(await cloudPasteChecksum(FIXTURE.data), FIXTURE.metadata.checksum);
});

Deno.test("an import yields records Cubby's own format accepts, and logs what it left out", async () => {
  const parsed = await importCloudPaste(FIXTURE.metadata, FIXTURE.data, { kdfIterations: 0 });
  assert.equal(parsed.info.format, "cloudpaste");
  for (const [module, rows] of Object.entries(parsed.data)) {
    const check = MODULE_SCHEMAS[module as BackupModule].safeParse(rows);
    assert.ok(check.success, `${module}: ${check.error?.issues[0]?.path.join(".")}`);
  }
  assert.deepEqual(parsed.data.account_management, [], "the admin is never imported");
  const skipped = (parsed.skipped ?? []).map((s) => `${s.module}:${s.reason}`).sort();
  assert.ok(skipped.includes("text_management:invalid_slug"), skipped.join());
  assert.ok(
    (parsed.notes ?? []).some((n) => n.code === "admin_not_imported"),
    JSON.stringify(parsed.notes),
  );
});

Deno.test("a changed row, or a row that is not an object, refuses the whole file", async () => {
  const changed = structuredClone(FIXTURE.data);
  changed.pastes[0].content = "changed";
  assert.deepEqual(
    await codeOf(importCloudPaste(FIXTURE.metadata, changed, { kdfIterations: 0 })),
    [
      "backup_checksum_mismatch",
      undefined,
    ],
  );
  const broken = structuredClone(FIXTURE.data) as Record<string, unknown[]>;
  broken.pastes[1] = "not a row";
  const meta = { ...FIXTURE.metadata, checksum: await cloudPasteChecksum(broken) };
  assert.deepEqual(await codeOf(importCloudPaste(meta, broken, { kdfIterations: 0 })), [
    "backup_invalid_file",
    "data.pastes.1",
  ]);
});

Deno.test("settings map onto Cubby's where one exists and the value passes its check", () => {
  assert.deepEqual(importCloudPasteSetting("file_naming_strategy", "random_suffix"), {
    key: "file_overwrite_mode",
    value: "rename",
  });
  assert.deepEqual(importCloudPasteSetting("file_naming_strategy", "original"), {
    key: "file_overwrite_mode",
    value: "overwrite",
  });
  assert.equal(importCloudPasteSetting("cloudpaste_only_setting", "x"), null);
  assert.equal(importCloudPasteSetting("max_upload_size", -5), null);
});
