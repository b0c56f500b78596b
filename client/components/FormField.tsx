/**
 * Form field scaffolding for every form: a labelled control with an optional hint and error
 * (and its common cases, a labelled input and a labelled select), and a labelled checkbox with an
 * optional hint (and the "select all" one above a group of them), all wired up for screen
 * readers.
 */
import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useEffect,
  useRef,
} from "react";

/** What the control needs: its id, and aria attributes pointing at the hint and error. */
export type FieldAttrs = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
};

/** What frames a field's control: its id, the label, and an optional hint and error. */
export type FieldFrame = {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** The error below the hint (the forms that show a standing hint first). */
  errorLast?: boolean;
  className?: string;
};

/** A labelled control; `children` renders the control from the attributes it must carry. */
export function FormField(
  { id, label, hint, error, errorLast = false, className, children }:
    & FieldFrame
    & { children: (attrs: FieldAttrs) => ReactNode },
) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const ids = errorLast ? [hintId, errorId] : [errorId, hintId];
  const describedBy = ids.filter(Boolean).join(" ") || undefined;
  const errorLine = error && <p id={errorId} className="field-error">{error}</p>;
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
      {!errorLast && errorLine}
      {hint && <p id={hintId} className="field-hint">{hint}</p>}
      {errorLast && errorLine}
    </div>
  );
}

/** A hint, and what InputField passes on to its input. */
export type InputOptions =
  & {
    hint?: ReactNode;
    /** A whole number: a numeric input stepping by one. */
    whole?: boolean;
    /** A monospaced input (keys, paths). */
    mono?: boolean;
    /** The error below the hint. */
    errorLast?: boolean;
  }
  & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange" | "className">;

/** A FormField holding one `input.input`; the other attributes go to the input. */
export function InputField(
  { id, label, hint, error, errorLast, className, value, onChange, whole, mono, ...input }:
    & FieldFrame
    & { value: string; onChange: (value: string) => void }
    & InputOptions,
) {
  const field = { id, label, hint, error, errorLast, className };
  return (
    <FormField {...field}>
      {(a) => (
        <input
          {...(whole ? { type: "number", inputMode: "numeric", step: 1 } as const : {})}
          {...input}
          {...a}
          className={mono ? "input input-mono" : "input"}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      )}
    </FormField>
  );
}

/** A FormField holding one `select.input` with `children` as its options; the rest goes to it. */
export function SelectField(
  { id, label, hint, error, errorLast, className, value, onChange, children, ...select }:
    & FieldFrame
    & { value: string | number; onChange: (value: string) => void; children: ReactNode }
    & Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "value" | "onChange" | "className">,
) {
  const field = { id, label, hint, error, errorLast, className };
  return (
    <FormField {...field}>
      {(a) => (
        <select
          {...select}
          {...a}
          className="input"
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          {children}
        </select>
      )}
    </FormField>
  );
}

/** A checkbox (or radio) inside its label (`label.check`), without a field frame. */
export function CheckLabel(
  { label, checked, onChange, type = "checkbox", ...input }:
    & {
      label: ReactNode;
      checked: boolean;
      onChange: (checked: boolean) => void;
      type?: "checkbox" | "radio";
    }
    & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "checked" | "onChange" | "className">,
) {
  return (
    <label className="check">
      <input
        {...input}
        type={type}
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <span>{label}</span>
    </label>
  );
}

/** A checkbox with its label and an optional hint below. */
export function CheckField(
  { id, label, hint, checked, disabled, className, onChange }: {
    id: string;
    label: ReactNode;
    hint?: ReactNode;
    checked: boolean;
    disabled?: boolean;
    className?: string;
    onChange: (checked: boolean) => void;
  },
) {
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <CheckLabel
        id={id}
        label={label}
        checked={checked}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={onChange}
      />
      {hint && <p id={`${id}-hint`} className="field-hint">{hint}</p>}
    </div>
  );
}

/** The strong "select all" checkbox above a group: checked when all are, mixed when some are. */
export function SelectAllCheck(
  { label, state, onChange }: {
    label: ReactNode;
    state: "all" | "some" | "none";
    onChange: (all: boolean) => void;
  },
) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === "some";
  }, [state]);
  return (
    <label className="check check-strong">
      <input
        ref={ref}
        type="checkbox"
        checked={state === "all"}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <span>{label}</span>
    </label>
  );
}
