import assert from "node:assert/strict";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createTestApp } from "../../tests/helpers/app.ts";
import { openApiPath } from "./openapi_document.ts";
import { TASK_ACTION_NAMES, TASK_WRITE_NAMES } from "./fs_tasks.ts";

Deno.test("GET /api/openapi.json is a valid OpenAPI 3.1 document", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/openapi.json");
  assert.equal(res.status, 200);
  const doc = await res.json();
  assert.equal(doc.openapi, "3.1.0");
  // validate() throws on any schema or reference error.
  await SwaggerParser.validate(structuredClone(doc));
  // The validator does reject a broken document (a dangling reference).
  const broken = structuredClone(doc);
  delete broken.components.schemas.ErrorEnvelope;
  await assert.rejects(() => SwaggerParser.validate(broken));
  // The bodies are the handlers' zod schemas: spot-check a few fields and the auth schemes.
  const keyCreate = doc.paths["/api/admin/api-keys"].post;
  assert.deepEqual(keyCreate.security, [{ bearerAuth: [] }]);
  const keyBody = keyCreate.requestBody.content["application/json"].schema;
  assert.ok(
    keyBody.properties.permissions.anyOf.some((s: { type?: string }) => s.type === "integer"),
  );
  const paste = doc.paths["/api/paste"].post;
  assert.deepEqual(paste.security, [{ bearerAuth: [] }, { apiKeyAuth: [] }]);
  assert.ok(paste.requestBody.content["application/json"].schema.properties.content);
  assert.deepEqual(doc.paths["/api/paste/{slug}"].get.security, []);
});

Deno.test("every operation lists its statuses, and byte routes document plain-text errors", async () => {
  await using t = await createTestApp();
  const doc = await (await t.request("/api/openapi.json")).json();
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ path, method, op }))
  );
  for (const { path, method, op } of ops) {
    const name = `${method} ${path}`;
    const statuses = Object.keys(op.responses);
    assert.ok(!statuses.includes("default"), `${name}: every status is listed, no default`);
    assert.ok(statuses.includes("500"), name);
    if (op.security.length) assert.ok(statuses.includes("401"), name);
    const write = ["post", "put", "delete"].includes(method);
    const idempotency = op.parameters.some((p) => p.name === "Idempotency-Key");
    const session = path === "/api/admin/login" || path === "/api/admin/logout";
    assert.equal(idempotency, write && !session, `${name}: Idempotency-Key`);
    if (idempotency) assert.ok(statuses.includes("409") && statuses.includes("422"), name);
  }
  // A byte route answers its errors as text with X-Error-Code, a JSON route as the envelope.
  const raw = doc.paths["/api/raw/{slug}"].get.responses;
  assert.equal(raw["404"].$ref, "#/components/responses/PlainError404");
  assert.ok(doc.components.responses.PlainError404.content["text/plain"]);
  assert.equal(
    doc.paths["/api/paste/{slug}"].get.responses["404"].$ref,
    "#/components/responses/Error404",
  );
  // The API-key scheme names its own prefix: `Authorization: ApiKey <key>`.
  assert.deepEqual(
    {
      type: doc.components.securitySchemes.apiKeyAuth.type,
      scheme: doc.components.securitySchemes.apiKeyAuth.scheme,
    },
    { type: "http", scheme: "ApiKey" },
  );
  // Uploads: a multipart form with a binary file; upload-direct takes the raw body.
  const upload = doc.paths["/api/upload"].post.requestBody.content["multipart/form-data"].schema;
  assert.deepEqual(upload.properties.file, { type: "string", format: "binary" });
  assert.ok(upload.required.includes("file"));
  assert.ok(
    doc.paths["/api/upload-direct/{filename}"].put.requestBody.content["application/octet-stream"],
  );
});

type Operation = {
  security: unknown[];
  parameters: { name: string; in: string }[];
  responses: Record<string, { $ref?: string }>;
};

Deno.test("every route Hono serves under /api appears in the OpenAPI document", async () => {
  await using t = await createTestApp();
  const doc = await (await t.request("/api/openapi.json")).json();
  const served = new Set<string>();
  for (const r of t.app.routes) {
    // The catch-all and middleware (ALL, `/api/*`) are no routes of their own.
    if (r.method === "ALL" || !r.path.startsWith("/api/") || r.path === "/api/*") continue;
    const path = openApiPath(r.path.slice(4));
    // The task writes are served by two parameterised routes (fs_tasks.ts) and documented by name.
    const names = path === "/api/fs/tasks/{name}"
      ? TASK_WRITE_NAMES
      : path === "/api/fs/tasks/{id}/{action}"
      ? TASK_ACTION_NAMES
      : null;
    const last = path.lastIndexOf("{");
    for (const p of names ? names.map((n) => path.slice(0, last) + n) : [path]) {
      served.add(`${r.method.toLowerCase()} ${p}`);
    }
  }
  assert.ok(served.size > 100, `found ${served.size} routes`);
  const missing = [...served].filter((k) => {
    const [method, path] = k.split(" ");
    return !doc.paths[path]?.[method];
  });
  assert.deepEqual(missing, []);
  // And nothing documented that is not served.
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops as object).map((m) => `${m} ${path}`)
  );
  assert.deepEqual(documented.filter((k) => !served.has(k)), []);
});
