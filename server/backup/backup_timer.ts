/**
 * The minute tick of scheduled backups. `Deno.cron` (with `--unstable-cron`, which deno.json
 * turns on) runs it once a minute in this process; without it, an interval does. Either way it
 * only asks "is a slot due?": the KV claim in ScheduledBackups decides which instance runs it.
 * A failed tick is logged, never thrown, so it cannot end the process.
 */
import type { ScheduledBackups } from "./scheduled_backups.ts";

/** Starts the tick; `stop()` ends it (on shutdown). */
export function startBackupTimer(
  backups: Pick<ScheduledBackups, "tick">,
  log: (msg: string) => void,
): { stop: () => void } {
  const tick = async () => {
    try {
      await backups.tick();
    } catch (err) {
      log(`scheduled backup tick failed: ${err instanceof Error ? err.stack : err}`);
    }
  };
  const ctrl = new AbortController();
  const cron = (Deno as { cron?: typeof Deno.cron }).cron;
  if (typeof cron === "function") {
    cron("cubby scheduled backups", "* * * * *", { signal: ctrl.signal }, tick)
      .catch((err) => log(`scheduled backups stopped: ${err}`));
    return { stop: () => ctrl.abort() };
  }
  const timer = setInterval(() => void tick(), 60_000);
  return { stop: () => clearInterval(timer) };
}
