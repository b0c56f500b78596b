/** A labelled control with an optional hint and error, wired for screen readers. */
import type { ReactNode } from "react";

/** What the control needs: its id, and aria attributes pointing at the hint and error. */
export type FieldAttrs = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
};

export function FormField(
  { id, label, hint, error, className, children }: {
    id: string;
    label: ReactNode;
    hint?: ReactNode;
    error?: string | null;
    className?: string;
    children: (attrs: FieldAttrs) => ReactNode;
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
