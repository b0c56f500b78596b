/** Calls of the dashboard (docs/PRODUCT.md §7.6, admin); each throws ApiError. */
import { api } from "../../api/client.ts";
import { sendOrQueue } from "../../offline/queued_api.ts";
import type {
  ActivityDay,
  BucketUsage,
  CacheClearResult,
  CacheStats,
  DashboardStats,
} from "../../../shared/schemas/dashboard.ts";

export type { ActivityDay, BucketUsage, CacheClearResult, CacheStats, DashboardStats };

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
