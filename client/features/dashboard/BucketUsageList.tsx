/** Per-bucket storage usage: used bytes against each config's quota, with a bar. */
import { useTranslation } from "react-i18next";
import { formatBytes } from "../../lib/format.ts";
import type { BucketUsage } from "./dashboard_api.ts";

/** The bar's colour band: over 90 % high, over 70 % mid. */
function level(percentage: number): "low" | "mid" | "high" {
  return percentage >= 90 ? "high" : percentage >= 70 ? "mid" : "low";
}

export function BucketUsageList({ buckets }: { buckets: BucketUsage[] }) {
  const { t } = useTranslation();
  if (buckets.length === 0) return <p className="empty-state">{t("dashboard.buckets.empty")}</p>;
  return (
    <ul className="dashboard-buckets">
      {buckets.map((b) => {
        const pct = b.percentage;
        return (
          <li key={b.id} className="inset-box dashboard-bucket" data-bucket={b.name}>
            <div className="dashboard-bucket-head">
              <span className="dashboard-bucket-name">{b.name}</span>
              <span className="badge">{t(`storage.providers.${b.provider_type}`)}</span>
            </div>
            <p className="dashboard-bucket-usage">
              {pct === null || b.quota_bytes === null
                ? t("dashboard.buckets.usedNoQuota", { used: formatBytes(b.used_bytes) })
                : t("dashboard.buckets.usedOf", {
                  used: formatBytes(b.used_bytes),
                  quota: formatBytes(b.quota_bytes),
                  percent: pct,
                })}
            </p>
            {pct !== null && (
              <div
                className={`meter meter-${level(pct)}`}
                role="progressbar"
                aria-label={t("dashboard.buckets.barLabel", { name: b.name })}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.min(100, pct)}
              >
                <span style={{ width: `${Math.min(100, pct)}%` }} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
