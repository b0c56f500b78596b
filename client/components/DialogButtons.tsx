/**
 * The two buttons that close every dialog and editor: a way back (Cancel unless told) and the
 * main action, primary or danger. Without `onConfirm` the main button submits `form`.
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** What DialogButtons shows and does. */
export type DialogButtonsProps = {
  onCancel: () => void;
  /** "Cancel" when absent. */
  cancelLabel?: string;
  cancelDisabled?: boolean;
  /** The dialog focuses Cancel first (a destructive question). */
  focusCancel?: boolean;
  label: ReactNode;
  /** The main action; when absent the main button submits the form `form`. */
  onConfirm?: () => void;
  form?: string;
  disabled?: boolean;
  /** Marks the main button busy while its action runs. */
  busy?: boolean;
  danger?: boolean;
};

/** Cancel and the main action, side by side (a fragment: the caller lays them out). */
export function DialogButtons(p: DialogButtonsProps) {
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        className="btn"
        onClick={p.onCancel}
        disabled={p.cancelDisabled}
        data-autofocus={p.focusCancel || undefined}
      >
        {p.cancelLabel ?? t("common.cancel")}
      </button>
      <button
        type={p.onConfirm ? "button" : "submit"}
        form={p.onConfirm ? undefined : p.form}
        className={`btn ${p.danger ? "btn-danger" : "btn-primary"}`}
        onClick={p.onConfirm}
        disabled={p.disabled}
        aria-busy={p.busy || undefined}
      >
        {p.label}
      </button>
    </>
  );
}
