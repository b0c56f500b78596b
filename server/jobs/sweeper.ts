/**
 * The expiry sweeper: every interval, the instance holding the KV lease deletes expired shares
 * (and, once files exist, their stored objects). Reads never depend on it: an expired share
 * answers 410 whether or not it was swept yet. Every instance, lease or not, also reclaims the
 * stale upload temp files on its own disks (temp_reclaim.ts).
 */
import type { Services } from "../container.ts";
import { reclaimTempFiles } from "./temp_reclaim.ts";

/** Runs one sweep if this instance holds the lease; returns how many records were removed. */
export async function sweepOnce(services: Services, owner: string): Promise<number> {
  if (!await services.leases.acquire("sweeper", owner, 5 * 60_000)) return 0;
  const now = Date.now();
  return await services.pastes.deleteExpired(now) + await services.files.deleteExpired(now);
}

/** Starts the periodic sweeper; stop() ends it. */
export function startSweeper(services: Services) {
  const owner = crypto.randomUUID();
  const ms = services.config.sweepIntervalMs;
  if (ms <= 0) return { stop() {} };
  // A timer callback: every failure is caught here, or it would end the process.
  const run = async () => {
    await reclaimTempFiles(services).catch((err) => console.error("temp reclaim failed:", err));
    await sweepOnce(services, owner).catch((err) => console.error("sweeper failed:", err));
  };
  const timer = setInterval(run, ms);
  setTimeout(run, 1000);
  return { stop: () => clearInterval(timer) };
}
