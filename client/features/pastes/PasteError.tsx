/** The paste view's error states: not found, expired or used up, or a failed request. */
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../shared/app_paths.ts";

/** Not found, expired or used up (no retry), or a failed request (retry). */
export function PasteError(
  { code, message, onRetry }: { code: string; message?: string; onRetry: () => void },
) {
  const { t } = useTranslation();
  const known = code === "paste_not_found" || code === "paste_expired";
  return (
    <section className="page paste-page paste-error" aria-labelledby="paste-error-title">
      <h1 id="paste-error-title">{known ? t(`errors.${code}`) : t("paste.failed")}</h1>
      <p className="muted">
        {code === "paste_not_found"
          ? t("paste.notFoundBody")
          : code === "paste_expired"
          ? t("paste.expiredBody")
          : message}
      </p>
      <p className="paste-error-actions">
        {!known && (
          <button type="button" className="btn" onClick={onRetry}>{t("common.retry")}</button>
        )}
        <Link className="btn btn-primary" to={paths.home}>{t("paste.backHome")}</Link>
      </p>
    </section>
  );
}
