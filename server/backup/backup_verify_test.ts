/** The scratch-KV check of scheduled backups, on backups a real app makes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { verifyInScratchKv } from "./backup_verify.ts";
import { createTestApp } from "../../tests/helpers/app.ts";
import { BACKUP_MODULES } from "../../shared/schemas/backup.ts";

Deno.test("verify: a full backup restores whole into a scratch KV, which is then removed", async () => {
  await using t = await createTestApp();
  await t.createKey({ text: true }, { name: "ci" });
  await t.createMount("/m", { name: "m" });
  const { file } = await t.services.backup.create([...BACKUP_MODULES]);
  const dir = join(t.dir, "scratch");
  const opts = { dir, box: null, kdfIterations: 1_000 };
  assert.deepEqual(await verifyInScratchKv(JSON.stringify(file), opts), { ok: true });
  assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), [], "nothing left behind");
});

Deno.test("verify: a damaged or unreadable backup is a result, never a throw", async () => {
  await using t = await createTestApp();
  await t.createKey({ text: true }, { name: "ci" });
  const { file } = await t.services.backup.create(["key_management"]);
  const opts = { dir: join(t.dir, "scratch"), box: null, kdfIterations: 1_000 };
  const tampered = structuredClone(file);
  tampered.data.key_management![0].name = "changed";
  assert.deepEqual(await verifyInScratchKv(JSON.stringify(tampered), opts), {
    ok: false,
    message: "backup_checksum_mismatch",
  });
  assert.deepEqual(await verifyInScratchKv("{not json", opts), {
    ok: false,
    message: "backup_parse_failed",
  });
});
