/** The offline badge of the top bar: shown only while the browser is offline. */
import { useTranslation } from "react-i18next";
import { useOnline } from "./online.ts";

/** A small "offline" pill with an explanation as its title. */
export function OfflineBadge() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <span className="offline-badge" title={t("pwa.offline.badgeHint")} data-testid="offline-badge">
      {t("pwa.offline.badge")}
    </span>
  );
}
