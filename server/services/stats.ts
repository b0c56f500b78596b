/**
 * The admin dashboard's numbers (docs/PRODUCT.md §2.3), answered from counters and small
 * indexes only: the totals and activity counters kept by the repos (kv/stats_repo.ts), the
 * per-config usage counters kept by uploads, the storage configs themselves (a handful of keys)
 * and the in-process cache statistics. Nothing here lists pastes or files.
 */
import { lastDays, type StatKind, type StatsRepo } from "../kv/stats_repo.ts";
import type { StorageConfigRepo } from "../kv/storage_config_repo.ts";
import type { CacheRegistry } from "./caches.ts";
import type { BucketUsage, DashboardStats } from "../../shared/schemas/dashboard.ts";

export type { DashboardStats };

/** Days in the activity series. */
export const ACTIVITY_DAYS = 7;

/** Migration 1: counts the records that existed before the dashboard counters did. */
export const STATS_MIGRATION = { n: 1, name: "dashboard_counters" } as const;

export class StatsService {
  constructor(
    private repo: StatsRepo,
    private storageConfigs: StorageConfigRepo,
    private caches: CacheRegistry,
  ) {}

  /** Everything the dashboard shows. */
  async dashboard(now = Date.now()): Promise<DashboardStats> {
    const days = lastDays(ACTIVITY_DAYS, now);
    const [totals, daily, configs] = await Promise.all([
      this.repo.totals(),
      this.repo.daily(days),
      this.storageConfigs.list(),
    ]);
    const usage = await this.repo.usage(configs.map((c) => c.id));
    const buckets = configs.map((c): BucketUsage => {
      const used = usage.get(c.id) ?? 0;
      const quota = c.total_storage_bytes;
      return {
        id: c.id,
        name: c.name,
        provider_type: c.provider_type,
        storage_type: c.provider_type === "local" ? "local" : "s3",
        used_bytes: used,
        quota_bytes: quota,
        percentage: quota === null
          ? null
          : quota > 0
          ? Math.round((used / quota) * 1000) / 10
          : (used > 0 ? 100 : 0),
      };
    });
    return {
      total_pastes: totals.pastes,
      total_files: totals.files,
      total_api_keys: totals.api_keys,
      total_storage_configs: totals.storage_configs,
      storage_used_bytes: buckets.reduce((sum, b) => sum + b.used_bytes, 0),
      buckets,
      activity: days.map((date, i) => ({ date, ...daily[i] })),
      caches: this.caches.stats(),
      generated_at: new Date(now).toISOString(),
    };
  }

  /**
   * Runs migration 1 once per store: counts the records written before the counters existed.
   * Returns true when this call applied it. Called by createServices at start-up.
   */
  async migrate(): Promise<boolean> {
    return (await this.repo.recount(STATS_MIGRATION)) !== null;
  }

  /**
   * Sets the counters from the records again (a full scan). For code that writes records
   * without the repos, such as a restore; throws when records keep changing meanwhile.
   */
  async recount(): Promise<Record<StatKind, number>> {
    return (await this.repo.recount())!;
  }
}
