/**
 * The JSON envelope `{code, message, data, success}` (docs/PRODUCT.md §8.1) and error rendering.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorCode, errorMessage } from "../../shared/errors.ts";
import type { Language } from "../../shared/constants.ts";
import type { AppEnv } from "./types.ts";

const SUCCESS_TEXT: Record<Language, string> = { "zh-CN": "操作成功", "en-US": "Success" };

/** Replies with a success envelope. */
export function ok<T>(c: Context<AppEnv>, data: T, status: 200 | 201 | 202 = 200) {
  return c.json(
    { code: status, message: SUCCESS_TEXT[c.get("lang")], data, success: true },
    status,
  );
}

/**
 * True when the caller asks for text/plain rather than JSON (`-H 'Accept: text/plain'`): the
 * create routes then answer with the share URL alone, for scripts, ShareX and Flameshot.
 */
export function wantsPlainText(c: Context<AppEnv>): boolean {
  const accept = (c.req.header("accept") ?? "").toLowerCase();
  return accept.includes("text/plain") && !accept.includes("application/json");
}

/** The body of an error envelope. */
export function errorBody(
  code: ErrorCode,
  status: number,
  lang: Language,
  details?: Record<string, unknown>,
) {
  return {
    code: status,
    message: errorMessage(code, lang, details),
    error: code,
    data: details ?? null,
    success: false,
  };
}

/** Replies with an error: JSON envelope, or plain text on byte routes. */
export function replyError(
  c: Context<AppEnv>,
  code: ErrorCode,
  status: ContentfulStatusCode,
  details?: Record<string, unknown>,
) {
  const lang = c.get("lang") ?? "zh-CN";
  // A refusal that names its wait tells HTTP clients too (WebDAV clients, scripts).
  if (status === 429 && typeof details?.seconds === "number") {
    c.header("Retry-After", String(details.seconds));
  }
  if (c.get("plainErrors")) {
    return c.text(errorMessage(code, lang, details), status, {
      "X-Error-Code": code,
      "X-Content-Type-Options": "nosniff",
    });
  }
  return c.json(errorBody(code, status, lang, details), status);
}
