/**
 * The check of a scheduled backup: the file is restored, in overwrite mode and through the same
 * code as a real restore, into a fresh KV in a temporary file, which is then thrown away. A
 * backup passes when the restore commits and every module's records all come back.
 */
import { join } from "node:path";
import { BackupService } from "./backup.ts";
import { BackupRepo } from "./backup_repo.ts";
import { PasteRepo } from "../shares/paste_repo.ts";
import { FileRepo } from "../shares/file_repo.ts";
import { MountRepo } from "../kv/mount_repo.ts";
import { StorageConfigRepo } from "../kv/storage_config_repo.ts";
import { ApiKeyRepo } from "../kv/api_key_repo.ts";
import { AccountRepo } from "../kv/account_repo.ts";
import { AppError } from "../errors.ts";
import type { SecretBox } from "../services/secret_box.ts";
import type { BackupModule } from "../../shared/schemas/backup.ts";

/** What the check found: passed, or the first thing that did not come back. */
export type VerifyResult = { ok: true } | { ok: false; message: string };

/**
 * Restores `text` into a scratch KV under `dir` (created and removed here) and compares what
 * came back with the file's counts. Never throws for a bad backup: that is the result.
 */
export async function verifyInScratchKv(
  text: string,
  opts: { dir: string; box: SecretBox | null; kdfIterations: number },
): Promise<VerifyResult> {
  await Deno.mkdir(opts.dir, { recursive: true });
  const scratch = await Deno.makeTempDir({ dir: opts.dir, prefix: "verify-" });
  const kv = await Deno.openKv(join(scratch, "scratch.kv"));
  try {
    const restore = new BackupService({
      pastes: new PasteRepo(kv),
      files: new FileRepo(kv),
      mounts: new MountRepo(kv),
      storage: new StorageConfigRepo(kv),
      apiKeys: new ApiKeyRepo(kv),
      accounts: new AccountRepo(kv),
      backup: new BackupRepo(kv),
      box: opts.box,
      kdfIterations: opts.kdfIterations,
      log: () => {},
    });
    const { info } = await restore.read(text);
    const report = await restore.restore(text, "overwrite");
    for (const module of info.modules as BackupModule[]) {
      const expected = info.counts[module] ?? 0;
      const restored = report.modules[module]?.restored ?? 0;
      if (restored !== expected) {
        return { ok: false, message: `${module}: ${restored} of ${expected} records restored` };
      }
    }
    return { ok: true };
  } catch (err) {
    const message = err instanceof AppError ? err.code : err instanceof Error ? err.message : "";
    return { ok: false, message: message || String(err) };
  } finally {
    kv.close();
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}
