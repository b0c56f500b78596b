/**
 * `deno task restore -- file.json [--mode overwrite|merge] [--dry-run]`: restores a Cubby (or
 * CloudPaste) backup file into the KV store at DATA_DIR (or KV_URL), all or nothing. The mode
 * defaults to overwrite; --dry-run only checks the file and shows what it holds. See
 * scripts/backup_cli.ts for running it next to the server.
 */
import { parseArgs } from "node:util";
import { cliArgs, describeError, EXIT_USAGE, fail, openBackup } from "./backup_cli.ts";
import { RESTORE_MODES, type RestoreMode } from "../shared/schemas/backup.ts";

const USAGE = "Usage: deno task restore -- file.json [--mode overwrite|merge] [--dry-run]";

let parsed: {
  values: { mode?: string; "dry-run"?: boolean; help?: boolean };
  positionals: string[];
};
try {
  parsed = parseArgs({
    args: cliArgs(),
    allowPositionals: true,
    options: {
      mode: { type: "string" },
      "dry-run": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
} catch (err) {
  fail(`${describeError(err)}\n${USAGE}`, EXIT_USAGE);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  Deno.exit(0);
}
const mode = values.mode ?? "overwrite";
if (positionals.length !== 1 || !(RESTORE_MODES as readonly string[]).includes(mode)) {
  fail(USAGE, EXIT_USAGE);
}
let text: string;
try {
  text = await Deno.readTextFile(positionals[0]);
} catch (err) {
  fail(`Cannot read ${positionals[0]}: ${describeError(err)}`, EXIT_USAGE);
}

const { kv, backup } = await openBackup();
try {
  const info = await backup.inspect(text);
  console.log(`${positionals[0]}: ${info.format} backup, version ${info.version}`);
  console.log(`  created:  ${info.created_at ?? "unknown"} (${info.type})`);
  for (const [m, n] of Object.entries(info.counts)) console.log(`  ${m}: ${n}`);
  if (!values["dry-run"]) {
    console.log(`Restoring in ${mode} mode…`);
    const report = await backup.restore(text, mode as RestoreMode);
    for (const [m, r] of Object.entries(report.modules)) {
      console.log(`  ${m}: ${r.restored} restored, ${r.skipped} skipped, ${r.removed} removed`);
    }
    for (const s of report.skipped) console.log(`  skipped ${s.module} ${s.id}: ${s.reason}`);
    if (report.skipped_total > report.skipped.length) {
      console.log(`  … ${report.skipped_total - report.skipped.length} more skipped`);
    }
    for (const n of report.notes) console.log(`  note ${n.module}: ${n.code} (${n.count})`);
    if (report.sessions_revoked) console.log("  The admin account changed: every session ended.");
    console.log(`Done in ${report.duration_ms} ms.`);
  }
} catch (err) {
  kv.close();
  fail(`Restore failed: ${describeError(err)}`);
}
kv.close();
