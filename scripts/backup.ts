/**
 * `deno task backup -- [--out file.json] [--modules a,b]`: writes a backup file of the KV store
 * at DATA_DIR (or KV_URL). Without --modules every module is included; dependencies are added
 * automatically. See scripts/backup_cli.ts for running it next to the server.
 */
import { parseArgs } from "node:util";
import { cliArgs, describeError, EXIT_USAGE, fail, openBackup } from "./backup_cli.ts";
import { BACKUP_MODULES, type BackupModule } from "../shared/schemas/backup.ts";

const USAGE = `Usage: deno task backup -- [--out file.json] [--modules ${
  BACKUP_MODULES.join(",")
}]`;

let values: { out?: string; modules?: string; help?: boolean };
try {
  values = parseArgs({
    args: cliArgs(),
    options: {
      out: { type: "string", short: "o" },
      modules: { type: "string", short: "m" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
} catch (err) {
  fail(`${describeError(err)}\n${USAGE}`, EXIT_USAGE);
}
if (values.help) {
  console.log(USAGE);
  Deno.exit(0);
}
const modules = (values.modules ?? BACKUP_MODULES.join(",")).split(",").map((m) => m.trim())
  .filter(Boolean);
const unknown = modules.filter((m) => !(BACKUP_MODULES as readonly string[]).includes(m));
if (modules.length === 0 || unknown.length > 0) {
  fail(`Unknown or missing modules: ${unknown.join(", ") || "(none)"}\n${USAGE}`, EXIT_USAGE);
}

const { kv, backup } = await openBackup();
try {
  const { file, filename } = await backup.create(modules as BackupModule[]);
  const out = values.out ?? filename;
  await Deno.writeTextFile(out, JSON.stringify(file, null, 2) + "\n");
  console.log(`Wrote ${out}`);
  console.log(`  modules:  ${file.metadata.modules.join(", ")}`);
  for (const [m, n] of Object.entries(file.metadata.counts)) console.log(`  ${m}: ${n}`);
  console.log(`  checksum: ${file.metadata.checksum}`);
} catch (err) {
  kv.close();
  fail(`Backup failed: ${describeError(err)}`);
}
kv.close();
