/** Renders the toast queue in an ARIA live region. */
import { useTranslation } from "react-i18next";
import { dismissToast, useToasts } from "./toast.ts";

export function Toaster() {
  const { t } = useTranslation();
  const items = useToasts();
  return (
    <div className="toaster" role="status" aria-live="polite">
      {items.map((it) => (
        <div
          key={it.id}
          className={`toast toast-${it.kind}`}
          role={it.kind === "error" ? "alert" : undefined}
        >
          <span>{it.text}</span>
          <button
            type="button"
            className="toast-close"
            aria-label={t("common.close")}
            onClick={() => dismissToast(it.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
