/**
 * Calls of the dashboard (spec §7 "System", admin); each throws ApiError. The types mirror
 * server/services/stats.ts and server/services/caches.ts (the client never imports the server).
 */
import { api } from "../../api/client.ts";
import { sendOrQueue } from "../../offline/queued_api.ts";
import type { ProviderType } from "../../../shared/schemas/storage_configs.ts";

/** One cache's statistics; `hit_rate` is between 0 and 1. */
export type CacheStats = {
  name: string;
  hits: number;
  misses: number;
  hit_rate: number;
  items: number;
};

/** One storage config's usage; `percentage` is null without a quota. */
export type BucketUsage = {
  id: string;
  name: string;
  provider_type: ProviderType;
  storage_type: "local" | "s3";
  used_bytes: number;
  quota_bytes: number | null;
  percentage: number | null;
};

/** One UTC day (`yyyy-mm-dd`) of activity. */
export type ActivityDay = { date: string; pastes: number; files: number };

/** GET /api/admin/dashboard/stats. */
export type DashboardStats = {
  total_pastes: number;
  total_files: number;
  total_api_keys: number;
  total_storage_configs: number;
  storage_used_bytes: number;
  buckets: BucketUsage[];
  activity: ActivityDay[];
  caches: CacheStats[];
  generated_at: string;
};

/** What clearing reports: items dropped per cache and in all. */
export type CacheClearResult = { cleared: { name: string; items: number }[]; total: number };

/** The dashboard's numbers. */
export function getDashboardStats(): Promise<DashboardStats> {
  return api<DashboardStats>("/admin/dashboard/stats");
}

/** Clears every cache of the instance that answers. */
export function clearAllCaches(): Promise<CacheClearResult> {
  return sendOrQueue<CacheClearResult>("/admin/cache/clear", {
    type: "clearCache",
    method: "POST",
  });
}
