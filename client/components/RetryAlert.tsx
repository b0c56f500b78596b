/** A load failure with a Retry button (and optional extra actions), announced to screen readers. */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

export function RetryAlert(
  { message, onRetry, children }: { message: ReactNode; onRetry: () => void; children?: ReactNode },
) {
  const { t } = useTranslation();
  return (
    <div className="alert alert-error" role="alert">
      <span>{message}</span>
      <button type="button" className="btn btn-small" onClick={onRetry}>
        {t("common.retry")}
      </button>
      {children}
    </div>
  );
}
