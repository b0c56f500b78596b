/**
 * The check of a scheduled backup: the file is restored, in overwrite mode and through the same
 * code as a real restore, into a fresh KV in a temporary file, which is then thrown away. A
 * backup passes when the restore commits and every module's records all come back.
 */
import { join } from "node:path";
import { BackupService } from "./backup.ts";
import { restoreReposOn } from "./backup_repos.ts";
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
      ...restoreReposOn(kv),
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
