/**
 * Where a server refusal goes in a form. The server names the request fields an error concerns
 * in `data.fields` (request field → a catalogue code, or a validator's own text); a form maps
 * those names, and codes that always concern one field, to its own fields. Whatever maps to no
 * field is shown at the top of the form (FormAlert), so no refusal is ever out of sight.
 */
import type { TFunction } from "i18next";
import { ApiError } from "./client.ts";
import { errorText } from "./errors.ts";

/** How a form's fields are found in a refusal. */
export type RefusalMap<F extends string> = {
  /** Request field (as the server names it in `data.fields`) → form field. */
  fields?: Partial<Record<string, F>>;
  /** Error code → form field, for refusals that always concern one field. */
  codes?: Partial<Record<string, F>>;
};

/** A refusal split into texts at fields and a text for the whole form. */
export type Refusal<F extends string> = {
  fields: Partial<Record<F, string>>;
  form: string | null;
};

/** The request fields a refusal names: `data.fields` of the envelope. */
export function refusedRequestFields(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const fields = (err.data as { fields?: unknown } | null)?.fields;
  return fields && typeof fields === "object" ? fields as Record<string, string> : {};
}

/**
 * Splits a refusal: each named field that the form has gets the text of the code the server
 * gave for it (or the refusal's own text, or "this value is not valid"); a refusal that names
 * none of the form's fields is the form's text.
 */
export function splitRefusal<F extends string>(
  t: TFunction,
  err: unknown,
  map: RefusalMap<F>,
  fallbackCode = "save_failed",
): Refusal<F> {
  const params = err instanceof ApiError ? { ...err.params, ...(err.data as object ?? {}) } : {};
  const own = errorText(t, err, fallbackCode);
  const fields: Partial<Record<F, string>> = {};
  for (const [name, code] of Object.entries(refusedRequestFields(err))) {
    const field = map.fields?.[name];
    if (!field || fields[field]) continue;
    const key = `errors.${code}`;
    const text = t(key, params);
    const generic = err instanceof ApiError && err.code === "validation_failed";
    fields[field] = text !== key ? text : generic ? t("errors.field_invalid") : own;
  }
  const byCode = err instanceof ApiError ? map.codes?.[err.code] : undefined;
  if (byCode && !fields[byCode]) fields[byCode] = own;
  return { fields, form: Object.keys(fields).length > 0 ? null : own };
}
