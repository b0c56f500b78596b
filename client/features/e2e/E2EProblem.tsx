/** Why an end-to-end encrypted share stays closed, said plainly, with a retry where it helps. */
import { useTranslation } from "react-i18next";
import type { E2EProblem as Problem } from "./e2e_open.ts";

export function E2EProblem(
  { problem, message, onRetry }: { problem?: Problem; message?: string; onRetry?: () => void },
) {
  const { t } = useTranslation();
  return (
    <div className="alert alert-error e2e-problem" role="alert">
      <div>
        <strong>{t("e2e.errors.title")}</strong>
        <p>{problem ? t(`e2e.errors.${problem}`) : message}</p>
      </div>
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>{t("common.retry")}</button>
      )}
    </div>
  );
}
