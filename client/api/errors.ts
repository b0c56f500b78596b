/** Turns any thrown value into the text a person should see, in the current language. */
import type { TFunction } from "i18next";
import { ApiError } from "./client.ts";

/** The localised text of an error: errors.<code> from the catalogue, else the server message. */
export function errorText(t: TFunction, err: unknown, fallbackCode = "request_failed"): string {
  if (err instanceof ApiError) {
    // A more precise text of the same code (shared/errors.ts `errorMessage`).
    const precise = (err.data as { message_code?: unknown } | null)?.message_code;
    const key = `errors.${typeof precise === "string" ? precise : err.code}`;
    const known = t(key, { ...err.params, ...(err.data as object ?? {}) });
    // A text whose values the reply did not carry (a 413 from a proxy has no limit) gives way to
    // the server's own message, or loses the parenthesis that would show "{{limit}}".
    if (known !== key && !known.includes("{{")) return known;
    if (err.serverMessage) return err.serverMessage;
    if (known !== key) return withoutPlaceholders(known);
    return t(`errors.${fallbackCode}`);
  }
  return t(`errors.${fallbackCode}`);
}

/** A text without its unfilled `{{name}}` placeholders (and the brackets around them). */
function withoutPlaceholders(text: string): string {
  return text.replace(/\s*[(（][^()（）]*\{\{\w+\}\}[^()（）]*[)）]/g, "")
    .replace(/\{\{\w+\}\}/g, "…");
}
