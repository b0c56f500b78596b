/**
 * Builds the OpenAPI 3.1 document served at /api/openapi.json from ROUTE_DOCS: request bodies
 * and query parameters are the JSON Schema (zod 4's `z.toJSONSchema`, input side) of the zod
 * schemas the handlers validate with; every operation names its auth scheme, its headers and
 * every status it can answer (openapi_responses.ts).
 */
import { APP_NAME, APP_VERSION } from "../../shared/constants.ts";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX } from "../../shared/idempotency.ts";
import type { RouteAuth, RouteBody, RouteDoc } from "./openapi_route_types.ts";
import { ADMIN_ROUTES } from "./openapi_routes_admin.ts";
import { SHARE_ROUTES } from "./openapi_routes_shares.ts";
import { FS_ROUTES } from "./openapi_routes_fs.ts";
import {
  ALL_ERROR_STATUSES,
  errorComponents,
  jsonSchema,
  responses,
  takesIdempotencyKey,
} from "./openapi_responses.ts";

/** Every documented /api route. */
export const ROUTE_DOCS: RouteDoc[] = [...ADMIN_ROUTES, ...SHARE_ROUTES, ...FS_ROUTES];

type Json = Record<string, unknown>;

/** `/paste/:slug` → `/api/paste/{slug}`; a trailing `*` becomes `{path}`. */
export function openApiPath(honoPath: string): string {
  const p = honoPath.replace(/:([A-Za-z_]+)/g, "{$1}").replace(/\/\*$/, "/{path}");
  return `/api${p}`;
}

function security(auth: RouteAuth): Json[] {
  if (auth === "public" || auth === "signed") return [];
  if (auth === "admin") return [{ bearerAuth: [] }];
  if (auth === "optional") return [{}, { bearerAuth: [] }, { apiKeyAuth: [] }];
  return [{ bearerAuth: [] }, { apiKeyAuth: [] }];
}

function authNote(auth: RouteAuth): string {
  if (auth.startsWith("key:")) return `Admin, or an API key with ${auth.slice(4)}.`;
  return {
    public: "No login.",
    optional: "No login needed; a login may change the answer.",
    login: "The admin or any valid API key.",
    admin: "The admin session only.",
    mount: "The admin, or an API key with any mount permission.",
    signed: "A signed URL (query `sig` and `exp`) instead of a login.",
  }[auth] ?? auth;
}

const IDEMPOTENCY_PARAM = {
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: false,
  description: "Runs the write at most once; a repeat with the same key returns the first reply.",
  schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: "^[!-~]+$" },
};
const RANGE_PARAMS = [
  { name: "Range", in: "header", required: false, schema: { type: "string" } },
  { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
];

function parameters(doc: RouteDoc): Json[] {
  const out: Json[] = [];
  for (const m of doc.path.matchAll(/:([A-Za-z_]+)/g)) {
    out.push({ name: m[1], in: "path", required: true, schema: { type: "string" } });
  }
  if (doc.path.endsWith("/*")) {
    out.push({ name: "path", in: "path", required: true, schema: { type: "string" } });
  }
  if (doc.query) {
    const s = jsonSchema(doc.query);
    const props = (s.properties ?? {}) as Record<string, Json>;
    const required = new Set((s.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(props)) {
      out.push({ name, in: "query", required: required.has(name), schema });
    }
  }
  if (takesIdempotencyKey(doc)) out.push(IDEMPOTENCY_PARAM);
  if (doc.ranges && doc.method !== "put") out.push(...RANGE_PARAMS);
  return out;
}

const BINARY = { type: "string", format: "binary" };

function requestBody(body: RouteBody): Json {
  switch (body.kind) {
    case "json": {
      const schema = jsonSchema(body.schema);
      const content: Json = { "application/json": { schema } };
      if (body.alsoText) {
        // The content as a text/plain body or an urlencoded form; options in the query.
        content["text/plain"] = { schema: { type: "string" } };
        content["application/x-www-form-urlencoded"] = { schema };
      }
      return { required: true, content };
    }
    case "multipart": {
      const fields = jsonSchema(body.schema);
      const props = { ...(fields.properties as Json), [body.file]: BINARY };
      const required = [...((fields.required ?? []) as string[]), body.file];
      return {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { ...fields, type: "object", properties: props, required },
          },
        },
      };
    }
    case "binary":
      return { required: true, content: { "application/octet-stream": { schema: BINARY } } };
    case "backup":
      return {
        required: true,
        content: {
          "application/json": { schema: { type: "object" } },
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: {
                file: BINARY,
                backup_file: BINARY,
                mode: { type: "string", enum: ["overwrite", "merge"] },
              },
            },
          },
        },
      };
  }
}

function operation(doc: RouteDoc): Json {
  const op: Json = {
    operationId: `${doc.method}${openApiPath(doc.path).replace(/[^A-Za-z0-9]+/g, "_")}`,
    summary: doc.summary,
    description: authNote(doc.auth),
    security: security(doc.auth),
    parameters: parameters(doc),
    responses: responses(doc),
  };
  if (doc.body && doc.method !== "get" && doc.method !== "head") {
    op.requestBody = requestBody(doc.body);
  }
  return op;
}

/** The fields every JSON envelope has, success or error. */
const ENVELOPE_FIELDS = { code: { type: "integer" }, message: { type: "string" }, data: {} };

/** The whole OpenAPI 3.1 document. */
export function buildOpenApi(): Json {
  const paths: Record<string, Json> = {};
  for (const doc of ROUTE_DOCS) {
    const p = openApiPath(doc.path);
    paths[p] ??= {};
    paths[p][doc.method] = operation(doc);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `${APP_NAME} API`,
      version: APP_VERSION,
      description:
        'Every JSON reply is the envelope {code, message, data, success} (errors add a stable `error` code). Request aliases and units: README, "API compatibility".',
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "Admin session token from POST /api/admin/login: `Bearer <token>`",
        },
        apiKeyAuth: {
          type: "http",
          scheme: "ApiKey",
          description: "An API key in the Authorization header: `ApiKey <key>`",
        },
      },
      schemas: {
        Envelope: {
          type: "object",
          properties: { ...ENVELOPE_FIELDS, success: { type: "boolean" } },
          required: ["code", "message", "success"],
        },
        ErrorEnvelope: {
          type: "object",
          properties: { ...ENVELOPE_FIELDS, success: { const: false }, error: { type: "string" } },
          required: ["code", "message", "data", "success", "error"],
        },
      },
      responses: errorComponents(ALL_ERROR_STATUSES),
      headers: {
        ErrorCode: {
          description: "The stable error code of a plain-text error",
          schema: { type: "string" },
        },
      },
    },
  };
}
