/** Composition root: config → KV → services → app → Deno.serve. */
// First: NODE_ENV must be set before React's CommonJS entry points are evaluated.
import "./server/production_env.ts";
import { loadConfig } from "./server/config.ts";
import { createServices } from "./server/container.ts";
import { StartupError } from "./server/services/auth.ts";
import { createApp } from "./server/app.ts";
import { openKv } from "./server/kv/open.ts";
import { startSweeper } from "./server/jobs/sweeper.ts";
import { startBackupTimer } from "./server/backup/backup_timer.ts";
import { reclaimTempFiles } from "./server/jobs/temp_reclaim.ts";
import { guardProcess } from "./server/process_guard.ts";

guardProcess();

const config = loadConfig(Deno.env.toObject());
await Deno.mkdir(config.dataDir, { recursive: true });
const kv = await openKv(config);
const services = await createServices(config, kv, console.log);
await services.backup.recoverInterruptedRestore();
try {
  await services.auth.ensureAdmin();
} catch (err) {
  if (!(err instanceof StartupError)) throw err;
  console.error(err.message);
  kv.close();
  Deno.exit(1);
}
const reclaimed = await reclaimTempFiles(services); // left by uploads a crash interrupted
if (reclaimed > 0) console.log(`Removed ${reclaimed} stale upload temp file(s).`);
const app = createApp({ services });
services.followOtherInstances();
const sweeper = startSweeper(services);
// A restore killed on another instance is rolled back here too, while this one keeps serving.
const restoreWatch = setInterval(() => {
  services.backup.repairDeadRestore().catch((err) => console.error(`restore repair: ${err}`));
}, 5_000);
const backupTimer = startBackupTimer(services.scheduledBackups, console.log);
services.tasks.start();

const server = Deno.serve(
  {
    port: config.port,
    hostname: config.hostname,
    onListen: ({ hostname, port }) => console.log(`Cubby listening on http://${hostname}:${port}`),
  },
  (req, info) => app.fetch(req, { remoteAddr: info.remoteAddr }),
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    sweeper.stop();
    clearInterval(restoreWatch);
    backupTimer.stop();
    services.tasks.stop();
    await server.shutdown();
    services.stopFollowing();
    // Views of unlimited shares still in memory go to KV before it closes.
    await services.viewTally.close().catch((err) => console.error(`View counts lost: ${err}`));
    kv.close();
    Deno.exit(0);
  });
}
