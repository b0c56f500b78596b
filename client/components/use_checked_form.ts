/**
 * State and submit flow of a create or edit form that is checked field by field: the values,
 * the error code of each field, the server's refusal, and Save (check, focus the first invalid
 * field, save, place a refusal on the fields it names or else at the top of the form).
 */
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type RefusalMap, splitRefusal } from "../api/field_errors.ts";

/** Field → error code. */
export type FieldErrors<V> = Partial<Record<keyof V, string>>;

export function useCheckedForm<V extends object>(
  { initial, formId, idOf, check, save, refusals }: {
    initial: () => V;
    /** The form's id: after a failed check, the first invalid control in it gets the focus. */
    formId: string;
    /** The id of a field's control. */
    idOf: (field: keyof V & string) => string;
    check: (values: V) => FieldErrors<V>;
    save: (values: V) => Promise<void>;
    /** Which fields a server refusal points at (by request field or by error code). */
    refusals: RefusalMap<keyof V & string>;
  },
) {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  /** The server's texts at the fields its refusal named. */
  const [serverErrors, setServerErrors] = useState<FieldErrors<V>>({});
  /** The server's refusal when it named none of the fields: shown at the top of the form. */
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [focusInvalid, setFocusInvalid] = useState(0);

  // Once the errors are on screen, focus the first invalid control in screen order.
  useEffect(() => {
    if (focusInvalid === 0) return;
    document.getElementById(formId)?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [focusInvalid, formId]);

  /** Sets one field and clears its errors. */
  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
    if (serverErrors[key]) setServerErrors((e) => ({ ...e, [key]: undefined }));
  };
  const focusFirst = (found: FieldErrors<V>) => {
    if (Object.values(found).some(Boolean)) setFocusInvalid((n) => n + 1);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found = check(values);
    setErrors(found);
    setServerErrors({});
    setServerError(null);
    if (Object.values(found).some(Boolean)) {
      focusFirst(found);
      return;
    }
    setBusy(true);
    try {
      await save(values);
    } catch (error) {
      const refusal = splitRefusal(t, error, refusals);
      setServerErrors(refusal.fields as FieldErrors<V>);
      setServerError(refusal.form);
      focusFirst(refusal.fields as FieldErrors<V>);
    } finally {
      setBusy(false);
    }
  };
  /** What binds an InputField to a text field: its id, value and change. */
  const bind = (f: keyof V & string) => ({
    id: idOf(f),
    value: String(values[f]),
    onChange: (v: string) => set(f, v as V[typeof f]),
    autoComplete: "off",
    spellCheck: false,
  });
  /** What binds a CheckField to a yes/no field. */
  const bindCheck = (f: keyof V & string) => ({
    id: idOf(f),
    checked: Boolean(values[f]),
    onChange: (on: boolean) => set(f, on as V[typeof f]),
  });
  /** A field's error text: the server's when its refusal named the field, else the check's. */
  const errorOf = (f: keyof V & string, local: (code: string) => string): string | null =>
    serverErrors[f] ?? (errors[f] ? local(errors[f]!) : null);
  return {
    values,
    setValues,
    set,
    bind,
    bindCheck,
    errors,
    setErrors,
    errorOf,
    serverError,
    busy,
    submit,
  };
}
