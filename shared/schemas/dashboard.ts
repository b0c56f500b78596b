/** What the dashboard and cache endpoints return (docs/PRODUCT.md §2.3, §7.6). */
import type { ProviderType } from "./storage_configs.ts";

/** What GET /api/admin/cache/stats reports per cache. */
export type CacheStats = {
  name: string;
  hits: number;
  misses: number;
  /** hits / (hits + misses), between 0 and 1; 0 before the first lookup. */
  hit_rate: number;
  items: number;
};

/** What a clear reports: the caches cleared with the live items each held, and their sum. */
export type CacheClearResult = { cleared: { name: string; items: number }[]; total: number };

/** One storage config's usage. */
export type BucketUsage = {
  id: string;
  name: string;
  provider_type: ProviderType;
  storage_type: "local" | "s3";
  used_bytes: number;
  /** The config's quota (`total_storage_bytes`), or null when it has none. */
  quota_bytes: number | null;
  /** used / quota × 100, one decimal; null without a quota. */
  percentage: number | null;
};

/** One UTC day of the activity series. */
export type ActivityDay = { date: string; pastes: number; files: number };

/** The body of GET /api/admin/dashboard/stats. */
export type DashboardStats = {
  total_pastes: number;
  total_files: number;
  total_api_keys: number;
  total_storage_configs: number;
  /** Bytes stored through Cubby, over every storage config. */
  storage_used_bytes: number;
  buckets: BucketUsage[];
  /** The last 7 UTC days, oldest first; the last one is today. */
  activity: ActivityDay[];
  caches: CacheStats[];
  generated_at: string;
};
