/**
 * The controls of a checked form (use_checked_form.ts) bound to its fields: a field's error
 * text, a one-line input and a checkbox, as the mount and storage config dialogs build them.
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CheckField, InputField, type InputOptions } from "./FormField.tsx";
import type { useCheckedForm } from "./use_checked_form.ts";

/** A form from useCheckedForm. */
type CheckedForm<V extends object> = ReturnType<typeof useCheckedForm<V>>;

/** Controls bound to the fields of `form`; its error codes read as `<errorTexts>.<code>`. */
export function useBoundFields<V extends object>(form: CheckedForm<V>, errorTexts: string) {
  const { t } = useTranslation();
  /** A field's error: the server's text when its refusal named the field, else the check's. */
  const err = (f: keyof V & string) => form.errorOf(f, (code) => t(`${errorTexts}.${code}`));
  /** A one-line input bound to a text field. */
  const input = (f: keyof V & string, label: ReactNode, opts: InputOptions = {}) => (
    <InputField {...form.bind(f)} label={label} {...opts} error={err(f)} />
  );
  /** A checkbox bound to a yes/no field. */
  const check = (f: keyof V & string, label: string, hint?: string) => (
    <CheckField {...form.bindCheck(f)} label={label} hint={hint} />
  );
  return { err, input, check };
}
