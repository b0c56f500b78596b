/** Request validation: parse a body or query with a zod schema, or throw a 400 with details. */
import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../errors.ts";
import { ERROR_CATALOGUE, type ErrorCode } from "../../shared/errors.ts";
import { parseLenient } from "./coerce.ts";
import type { AppEnv } from "./types.ts";
import { readBodyText } from "./body.ts";

/** Turns zod issues into `{field: message}` pairs for the error details. */
function issuesToFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join(".") || "_";
    fields[path] ??= issue.message;
  }
  return fields;
}

/**
 * Validates a value. A schema issue whose message is a catalogue code (for example
 * `slug_invalid`) becomes that error; otherwise the error is `validation_failed`.
 * Every route gets the same lenient reading of request shapes first (see coerce.ts): a
 * numeric string where a number is expected becomes that number, and `null` where the
 * schema gives null no meaning counts as absent.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = parseLenient(schema, value);
  if (result.success) return result.data;
  const first = result.error.issues[0]?.message ?? "";
  const code: ErrorCode = first in ERROR_CATALOGUE ? first as ErrorCode : "validation_failed";
  throw new AppError(code, 400, { fields: issuesToFields(result.error) });
}

/**
 * Reads and validates a JSON body, within the route's body limit (413) and the idle timeout
 * (408; see body.ts). Throws 400 invalid_json for unparsable bodies.
 */
export async function readJson<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S,
): Promise<z.infer<S>> {
  const text = await readBodyText(c);
  let body: unknown;
  try {
    body = text === "" ? {} : JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", 400);
  }
  return validate(schema, body);
}

/** Validates the query string. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return validate(schema, c.req.query());
}
