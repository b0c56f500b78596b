/** The dashboard's totals: text shares, file uploads, API keys, storage configs, storage used. */
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../shared/app_paths.ts";
import { formatBytes } from "../../lib/format.ts";
import type { DashboardStats } from "./dashboard_api.ts";

type Total = { id: string; labelKey: string; value: string; to?: string };

export function TotalsGrid({ stats }: { stats: DashboardStats }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => new Intl.NumberFormat(i18n.language).format(v);
  const totals: Total[] = [
    {
      id: "pastes",
      labelKey: "dashboard.totals.pastes",
      value: n(stats.total_pastes),
      to: paths.textManagement,
    },
    {
      id: "files",
      labelKey: "dashboard.totals.files",
      value: n(stats.total_files),
      to: paths.fileManagement,
    },
    {
      id: "apiKeys",
      labelKey: "dashboard.totals.apiKeys",
      value: n(stats.total_api_keys),
      to: paths.keyManagement,
    },
    {
      id: "storageConfigs",
      labelKey: "dashboard.totals.storageConfigs",
      value: n(stats.total_storage_configs),
      to: paths.storageConfig,
    },
    {
      id: "storageUsed",
      labelKey: "dashboard.totals.storageUsed",
      value: formatBytes(stats.storage_used_bytes),
    },
  ];
  return (
    <dl className="dashboard-totals">
      {totals.map((item) => (
        <div key={item.id} className="card dashboard-total" data-total={item.id}>
          <dt className="dashboard-total-label">
            {item.to ? <Link to={item.to}>{t(item.labelKey)}</Link> : t(item.labelKey)}
          </dt>
          <dd className="dashboard-total-value">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
