import assert from "node:assert/strict";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createTestApp } from "../../tests/helpers/app.ts";
import { openApiPath } from "../http/openapi.ts";
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
  delete broken.components.schemas.Envelope;
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
