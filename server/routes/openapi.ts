/** GET /api/openapi.json: the OpenAPI 3.1 document of every /api route (built once). */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { buildOpenApi } from "./openapi_document.ts";

export function openApiRoutes() {
  const app = new Hono<AppEnv>();
  let doc: Record<string, unknown> | null = null;
  app.get("/openapi.json", (c) => {
    doc ??= buildOpenApi();
    return c.json(doc);
  });
  return app;
}
