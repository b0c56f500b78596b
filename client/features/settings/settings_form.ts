/**
 * The settings forms' state: input values (text, or a flag for switches), the same checks the
 * server makes (shared/schemas/settings.ts), and the server's per-key errors.
 */
import {
  checkSettingValue,
  type SettingIssue,
  type SettingMeta,
  type SettingValue,
} from "../../../shared/schemas/settings.ts";
import { ApiError } from "../../api/client.ts";

/** What the inputs hold: a string, or a boolean for switches. */
export type FormValues = Record<string, string | boolean>;
export type FormErrors = Record<string, SettingIssue>;

/** Input values from stored values. */
export function toFormValues(entries: { key: string; value: SettingValue }[]): FormValues {
  return Object.fromEntries(
    entries.map((e) => [e.key, typeof e.value === "boolean" ? e.value : String(e.value)]),
  );
}

/** Checks every input; returns the typed values to send, or the errors by key. */
export function validateSettingsForm(
  metas: readonly SettingMeta[],
  values: FormValues,
): { values: Record<string, SettingValue>; errors: FormErrors } {
  const out: Record<string, SettingValue> = {};
  const errors: FormErrors = {};
  for (const m of metas) {
    if (m.system || !(m.key in values)) continue;
    const check = checkSettingValue(m, values[m.key]);
    if (check.ok) out[m.key] = check.value;
    else errors[m.key] = { error: check.error, params: check.params };
  }
  return { values: out, errors };
}

/** The per-key errors of a failed save (400 settings_invalid), or null for other failures. */
export function serverFieldErrors(err: unknown): FormErrors | null {
  if (!(err instanceof ApiError) || err.code !== "settings_invalid") return null;
  const data = err.data as {
    fields?: Record<string, SettingIssue["error"]>;
    params?: Record<string, SettingIssue["params"]>;
  } | null;
  if (!data?.fields) return null;
  const out: FormErrors = {};
  for (const [key, error] of Object.entries(data.fields)) {
    out[key] = { error, params: data.params?.[key] };
  }
  return out;
}
