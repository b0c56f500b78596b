/** A labelled form control with an optional hint and error, wired up for screen readers. */
import type { ReactNode } from "react";

/** The attributes a control needs to be described by its hint and error. */
export type FieldA11y = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
};

export function Field(
  { id, label, hint, error, className, children }: {
    id: string;
    label: ReactNode;
    hint?: ReactNode;
    error?: string | null;
    className?: string;
    children: (a11y: FieldA11y) => ReactNode;
  },
) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
      {error && <p id={errorId} className="field-error">{error}</p>}
      {hint && <p id={hintId} className="field-hint">{hint}</p>}
    </div>
  );
}
