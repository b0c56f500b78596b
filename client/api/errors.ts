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
    if (known !== key) return known;
    return err.serverMessage ?? t(`errors.${fallbackCode}`);
  }
  return t(`errors.${fallbackCode}`);
}
