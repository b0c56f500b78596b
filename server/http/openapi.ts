/**
 * Builds the OpenAPI 3.1 document served at /api/openapi.json from ROUTE_DOCS: request bodies
 * and query parameters are the JSON Schema (zod 4's `z.toJSONSchema`, input side) of the zod
 * schemas the handlers validate with; every operation names its auth scheme.
 */
import { z } from "zod";
import { APP_NAME, APP_VERSION } from "../../shared/constants.ts";
import type { RouteAuth, RouteBody, RouteDoc } from "./openapi_route_types.ts";
import { ADMIN_ROUTES } from "./openapi_routes_admin.ts";
import { SHARE_ROUTES } from "./openapi_routes_shares.ts";
import { FS_ROUTES } from "./openapi_routes_fs.ts";

/** Every documented /api route. */
export const ROUTE_DOCS: RouteDoc[] = [...ADMIN_ROUTES, ...SHARE_ROUTES, ...FS_ROUTES];

type Json = Record<string, unknown>;

const SCHEMA_OPTIONS = { io: "input", unrepresentable: "any", target: "draft-2020-12" } as const;

/** JSON Schema of a zod schema, without the `$schema` line (OpenAPI 3.1 uses 2020-12). */
function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, SCHEMA_OPTIONS) as Json;
  return rest;
}

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
  return out;
}

function requestBody(body: RouteBody): Json {
  switch (body.kind) {
    case "json":
      return {
        required: true,
        content: { "application/json": { schema: jsonSchema(body.schema) } },
      };
    case "multipart": {
      const fields = jsonSchema(body.schema);
      const props = {
        ...(fields.properties as Json),
        [body.file]: { type: "string", contentMediaType: "application/octet-stream" },
      };
      return {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { ...fields, type: "object", properties: props, required: [body.file] },
          },
        },
      };
    }
    case "binary":
      return { required: true, content: { "application/octet-stream": { schema: {} } } };
    case "backup":
      return {
        required: true,
        content: {
          "application/json": { schema: { type: "object" } },
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: {
                file: { type: "string" },
                backup_file: { type: "string" },
                mode: { type: "string", enum: ["overwrite", "merge"] },
              },
            },
          },
        },
      };
  }
}

function operation(doc: RouteDoc): Json {
  const status = String(doc.status ?? 200);
  const success = doc.bytes
    ? { description: "The bytes or text", content: { "*/*": { schema: {} } } }
    : {
      description: "Success",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Envelope" } } },
    };
  const op: Json = {
    operationId: `${doc.method}${openApiPath(doc.path).replace(/[^A-Za-z0-9]+/g, "_")}`,
    summary: doc.summary,
    description: authNote(doc.auth),
    security: security(doc.auth),
    parameters: parameters(doc),
    responses: {
      [status]: success,
      default: {
        description: "Error",
        content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
      },
    },
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
          description: "Admin session token from POST /api/admin/login",
        },
        apiKeyAuth: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "`ApiKey <key>`",
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
          required: ["code", "message", "success", "error"],
        },
      },
    },
  };
}
