/**
 * The responses of each documented operation: its success (the envelope with its `data`, or
 * bytes), and every error status it can answer. The error statuses follow from what the route
 * is (who may call it, whether it takes parameters, a body or an Idempotency-Key, whether it
 * serves stored bytes), plus the few a route adds of its own (`errors` in its table entry).
 * A schemathesis run (tests/conformance/) checks that the server answers no other status.
 */
import { z } from "zod";
import type { RouteDoc } from "./openapi_route_types.ts";

type Json = Record<string, unknown>;

const SCHEMA_OPTIONS = { io: "input", unrepresentable: "any", target: "draft-2020-12" } as const;

/** JSON Schema of a zod schema, without the `$schema` line (OpenAPI 3.1 uses 2020-12). */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "input"): Json {
  const options = { ...SCHEMA_OPTIONS, io };
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, options) as Json;
  return rest;
}

/** Writes whose reply is never kept (a session token must not be stored or replayed). */
const NO_IDEMPOTENCY = new Set(["/admin/login", "/admin/logout"]);

/** True when a route accepts the Idempotency-Key header (every write but login and logout). */
export function takesIdempotencyKey(doc: RouteDoc): boolean {
  return ["post", "put", "delete"].includes(doc.method) && !NO_IDEMPOTENCY.has(doc.path);
}

const hasPathParams = (doc: RouteDoc) => /\/[:*]/.test(doc.path);

/** Every error status the route can answer. */
export function errorStatuses(doc: RouteDoc): number[] {
  const s = new Set<number>([500]);
  const idempotent = takesIdempotencyKey(doc);
  if (hasPathParams(doc) || doc.query || doc.body || idempotent) s.add(400);
  if (doc.auth !== "public" && doc.auth !== "signed") {
    // Credentials that are missing or wrong; wrong API keys are rate-limited per client.
    s.add(401);
    s.add(429);
  }
  if (!["public", "optional", "login"].includes(doc.auth)) s.add(403);
  if (hasPathParams(doc)) s.add(404);
  if (idempotent) {
    s.add(409); // the same key still in flight
    s.add(422); // the same key on another request
  }
  if (doc.ranges) s.add(416);
  for (const e of doc.errors ?? []) s.add(e);
  return [...s].sort((a, b) => a - b);
}

/** What each error status means across the API. */
const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input (the error code says which rule)",
  401: "Credentials missing, wrong or expired",
  403: "Not allowed for these credentials, or a share that needs its password",
  404: "No such record or path",
  409: "Conflict: the record or path exists, or the Idempotency-Key is still in use",
  410: "The share has expired or is used up",
  413: "Too large: the body, the file, or the storage quota",
  415: "Unsupported media type",
  416: "The requested range cannot be satisfied",
  422: "The Idempotency-Key was used for a different request",
  429: "Too many attempts; retry after the given seconds",
  500: "A server fault (never the request's)",
  502: "The storage service failed",
  507: "The storage has no space left",
};

/** The shared response objects, one per status and error form (components.responses). */
export function errorComponents(statuses: number[]): Json {
  const out: Json = {};
  for (const status of statuses) {
    out[`Error${status}`] = {
      description: ERROR_TEXT[status] ?? "Error",
      content: {
        "application/json": {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/ErrorEnvelope" },
              { properties: { code: { const: status } } },
            ],
          },
        },
      },
    };
    out[`PlainError${status}`] = {
      description: `${ERROR_TEXT[status] ?? "Error"} (plain text; the code is in X-Error-Code)`,
      headers: { "X-Error-Code": { $ref: "#/components/headers/ErrorCode" } },
      content: { "text/plain": { schema: { type: "string" } } },
    };
  }
  return out;
}

/** Every error status any operation documents, for errorComponents. */
export const ALL_ERROR_STATUSES = Object.keys(ERROR_TEXT).map(Number);

/** The success envelope with `data` of the given schema. */
function envelope(status: number, data: Json): Json {
  return {
    type: "object",
    required: ["code", "message", "data", "success"],
    properties: {
      code: { const: status },
      message: { type: "string" },
      data,
      success: { const: true },
    },
  };
}

function success(doc: RouteDoc): Json {
  const status = doc.status ?? 200;
  if (doc.bytes) {
    const schema = doc.bytes === "text/plain" ? { type: "string" } : {};
    return { description: "The bytes", content: { [doc.bytes]: { schema } } };
  }
  const data = doc.data ? jsonSchema(doc.data, "output") : {};
  const content: Json = { "application/json": { schema: envelope(status, data) } };
  // POST /paste answers the share URL as text for `Accept: text/plain`.
  if (doc.body?.kind === "json" && doc.body.alsoText) {
    content["text/plain"] = { schema: { type: "string" } };
  }
  return { description: "Success", content };
}

/** The `responses` object of an operation. */
export function responses(doc: RouteDoc): Json {
  const status = doc.status ?? 200;
  const out: Json = { [String(status)]: success(doc) };
  if (doc.ranges) {
    out["206"] = { description: "Part of the bytes (Range)", content: { "*/*": { schema: {} } } };
    out["304"] = { description: "Not modified (If-None-Match)" };
  }
  if (doc.redirect) out["302"] = { description: "Redirect to the stored object" };
  const prefix = doc.plainErrors ? "PlainError" : "Error";
  for (const s of errorStatuses(doc)) {
    out[String(s)] = { $ref: `#/components/responses/${prefix}${s}` };
  }
  return out;
}
