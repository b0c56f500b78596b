/** The "End-to-end encrypted" badge of share lists, saying why search and previews skip it. */
import { useTranslation } from "react-i18next";

export function E2EBadge() {
  const { t } = useTranslation();
  return <span className="badge badge-primary" title={t("e2e.listHint")}>{t("e2e.badge")}</span>;
}
