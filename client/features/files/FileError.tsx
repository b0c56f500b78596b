/** The file view's error states, by status (docs/PRODUCT.md §8.5). */
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../shared/app_paths.ts";
import { fileErrorKind } from "./format.ts";

const ERROR_KEYS = {
  unauthorized: "unauthorized",
  forbidden: "forbidden",
  not_found: "notFound",
  server_error: "serverError",
} as const;

/**
 * docs/PRODUCT.md §8.5: 401 unauthorized, 403 and 410 forbidden, 404 not found, others server
 * error.
 */
export function FileError(
  { status, code, message, onRetry }: {
    status: number;
    code: string;
    message?: string;
    onRetry: () => void;
  },
) {
  const { t } = useTranslation();
  const kind = code === "missing_slug" ? "missingSlug" : ERROR_KEYS[fileErrorKind(status)];
  const body = code === "file_expired"
    ? t("file.errors.expiredBody")
    : code === "file_not_found"
    ? t("file.errors.notFoundBody")
    : t(`file.errors.${kind}.body`);
  const retry = kind === "serverError";
  return (
    <section className="file-page file-error status-page" aria-labelledby="file-error-title">
      <h1 id="file-error-title">
        {/* Expired or used up says so, in the pastes' words, not "Access denied". */}
        {code === "file_expired" ? t("errors.file_expired") : t(`file.errors.${kind}.title`)}
      </h1>
      <p className="muted">{body}</p>
      {retry && message && <p className="muted">{message}</p>}
      <p className="status-page-actions">
        {retry && (
          <button type="button" className="btn" onClick={onRetry}>{t("common.retry")}</button>
        )}
        <Link className="btn btn-primary" to={paths.home}>{t("file.backHome")}</Link>
      </p>
    </section>
  );
}
