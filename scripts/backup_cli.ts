/**
 * Shared set-up of `deno task backup` and `deno task restore`. Both open the KV store directly
 * (DATA_DIR/cubby.kv, or KV_URL), with the same configuration variables as the server. Deno KV's
 * SQLite file may be open in several processes at once, and a restore takes the restore
 * journal's lock in KV, so the commands also work while the server runs (its in-memory caches
 * catch up within seconds). Should SQLite refuse the file, they stop with a message that points
 * at the HTTP API instead (docs/BACKUP.md).
 */
import { loadConfig } from "../server/config.ts";
import { openKv } from "../server/kv/open.ts";
import { StatsRepo } from "../server/kv/stats_repo.ts";
import { BackupService } from "../server/backup/backup.ts";
import { restoreReposOn } from "../server/backup/backup_repos.ts";
import { SecretBox } from "../server/services/secret_box.ts";
import { AppError } from "../server/errors.ts";
import { errorMessage } from "../shared/errors.ts";

/** Exit codes: 1 for a refused file or a failed run, 2 for usage errors and a busy KV. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** The arguments after the task name, without the `--` that `deno task x -- …` passes on. */
export function cliArgs(): string[] {
  return Deno.args[0] === "--" ? Deno.args.slice(1) : [...Deno.args];
}

/** Prints a message to stderr and exits. */
export function fail(message: string, code = EXIT_FAILED): never {
  console.error(message);
  Deno.exit(code);
}

/** Opens the KV store and builds the backup service, or exits with an explanation. */
export async function openBackup(): Promise<{ kv: Deno.Kv; backup: BackupService }> {
  const config = loadConfig(Deno.env.toObject());
  let kv: Deno.Kv;
  try {
    await Deno.mkdir(config.dataDir, { recursive: true });
    kv = await openKv(config);
  } catch (err) {
    if (String(err).includes("in use by another process")) {
      fail(
        `The KV file ${config.kvPath} is locked by another process.\n` +
          `Stop the Cubby server first, or use the HTTP API with an admin token instead:\n` +
          `  curl -H "Authorization: Bearer $TOKEN" -o backup.json \\\n` +
          `    "http://localhost:${config.port}/api/admin/backup/create?modules=text_management"\n` +
          `  curl -H "Authorization: Bearer $TOKEN" --data-binary @backup.json \\\n` +
          `    "http://localhost:${config.port}/api/admin/backup/restore?mode=overwrite"`,
        EXIT_USAGE,
      );
    }
    throw err;
  }
  const stats = new StatsRepo(kv);
  const backup = new BackupService({
    ...restoreReposOn(kv),
    box: await SecretBox.open(config),
    kdfIterations: config.kdfIterations,
    log: (msg) => console.error(msg),
    afterRestore: async () => {
      await stats.recount();
    },
  });
  // A restore that died (server or CLI) is repaired before anything is read or written.
  await backup.recoverInterruptedRestore();
  return { kv, backup };
}

/** The English text of an AppError, with its details; other errors as they are. */
export function describeError(err: unknown): string {
  if (err instanceof AppError) {
    const extra = err.details ? ` ${JSON.stringify(err.details)}` : "";
    return `${errorMessage(err.code, "en-US", err.details)} (${err.code})${extra}`;
  }
  return err instanceof Error ? err.message : String(err);
}
