/** Cache monitoring: hit rate and items of the directory, S3 URL and search caches. */
import { useTranslation } from "react-i18next";
import type { CacheStats } from "./dashboard_api.ts";

const KNOWN = new Set(["directory", "s3_url", "search"]);

/** The translated name of a cache (unknown names are shown as they are). */
function useCacheName() {
  const { t } = useTranslation();
  return (name: string) => KNOWN.has(name) ? t(`dashboard.caches.names.${name}`) : name;
}

export function CachePanel({ caches }: { caches: CacheStats[] }) {
  const { t, i18n } = useTranslation();
  const cacheName = useCacheName();
  const percent = new Intl.NumberFormat(i18n.language, {
    style: "percent",
    maximumFractionDigits: 1,
  });
  const n = new Intl.NumberFormat(i18n.language);
  return (
    <ul className="dashboard-caches">
      {caches.map((c) => {
        const lookups = c.hits + c.misses;
        return (
          <li key={c.name} className="inset-box dashboard-cache" data-cache={c.name}>
            <h3 className="dashboard-cache-name">{cacheName(c.name)}</h3>
            <dl className="dashboard-cache-stats">
              <div>
                <dt>{t("dashboard.caches.hitRate")}</dt>
                <dd data-stat="hit-rate">{lookups === 0 ? "—" : percent.format(c.hit_rate)}</dd>
              </div>
              <div>
                <dt>{t("dashboard.caches.items")}</dt>
                <dd data-stat="items">{n.format(c.items)}</dd>
              </div>
            </dl>
            <p className="dashboard-cache-lookups muted">
              {t("dashboard.caches.lookups", {
                hits: n.format(c.hits),
                misses: n.format(c.misses),
              })}
            </p>
            <div className="meter" aria-hidden="true">
              <span style={{ width: `${Math.round(c.hit_rate * 100)}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
