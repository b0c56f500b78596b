/**
 * createApp: mounts every route group under /api, the error funnel, static assets and the
 * server-rendered pages. It takes built services so tests can run it on a temporary KV.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./http/types.ts";
import { AppError } from "./errors.ts";
import { replyError } from "./http/envelope.ts";
import { clientFault } from "./http/client_faults.ts";
import {
  BYTE_ROUTES,
  plainErrors,
  requestContext,
  requestMemo,
  resolveAuth,
} from "./http/middleware.ts";
import type { Services } from "./container.ts";
import { authRoutes } from "./routes/auth.ts";
import { apiKeyRoutes } from "./routes/api_keys.ts";
import { systemRoutes } from "./routes/system.ts";
import { pasteRoutes } from "./routes/pastes.ts";
import { pageRoutes } from "./routes/pages.ts";
import { storageConfigRoutes } from "./routes/storage_configs.ts";
import { fileRoutes } from "./routes/files.ts";
import { publicFileRoutes } from "./routes/public_files.ts";
import { localStorageRoutes } from "./routes/local_storage.ts";
import { urlUploadRoutes } from "./routes/url_upload.ts";
import { mountRoutes } from "./routes/mounts.ts";
import { fsRoutes } from "./routes/fs.ts";
import { fsTaskRoutes } from "./routes/fs_tasks.ts";
import { fsUploadRoutes } from "./routes/fs_uploads.ts";
import { proxyRoutes } from "./routes/proxy.ts";
import { fsSearchRoutes } from "./routes/fs_search.ts";
import { staticRoutes } from "./routes/static.ts";
import { webManifestRoutes } from "./routes/web_manifest.ts";
import { settingsRoutes } from "./routes/settings.ts";
import { dashboardRoutes } from "./routes/dashboard.ts";
import { cacheRoutes } from "./routes/caches.ts";
import { backupRoutes } from "./routes/backup.ts";
import { webdavRoutes } from "./routes/webdav.ts";
import { shareTargetRoutes } from "./routes/share_target.ts";
import { openApiRoutes } from "./routes/openapi.ts";

export type AppOptions = { services: Services; log?: (msg: string) => void };

/** Builds the Hono app. */
export function createApp({ services, log = console.error }: AppOptions) {
  const app = new Hono<AppEnv>();
  app.use("*", requestContext(services, log));

  const api = new Hono<AppEnv>();
  for (const path of BYTE_ROUTES) api.use(path, plainErrors);
  api.use("*", resolveAuth);
  api.use("/fs/*", requestMemo);
  api.route("/", systemRoutes());
  api.route("/", authRoutes());
  api.route("/", apiKeyRoutes());
  api.route("/", pasteRoutes());
  api.route("/", storageConfigRoutes());
  api.route("/", fileRoutes());
  api.route("/", publicFileRoutes());
  api.route("/", localStorageRoutes());
  api.route("/", urlUploadRoutes());
  api.route("/", mountRoutes());
  api.route("/", fsRoutes());
  api.route("/", fsTaskRoutes());
  api.route("/", fsUploadRoutes());
  api.route("/", proxyRoutes());
  api.route("/", fsSearchRoutes());
  api.route("/", dashboardRoutes());
  api.route("/", cacheRoutes());
  api.route("/", settingsRoutes());
  api.route("/", backupRoutes());
  api.route("/", openApiRoutes());
  api.all("*", () => {
    throw new AppError("route_not_found", 404);
  });
  app.route("/api", api);
  // WebDAV authenticates on its own; mounted before the static and page catch-alls.
  app.route("/dav", webdavRoutes(services));

  app.route("/", webManifestRoutes());
  app.route("/", shareTargetRoutes());
  app.route("/", staticRoutes(services.config.distDir));
  app.route("/", pageRoutes(services.config.distDir));

  app.onError((thrown, c) => {
    const err = clientFault(thrown) ?? thrown;
    if (err instanceof AppError) {
      // A locked share is 403, never 401: a 401 tells a signed-in client its session ended.
      const status = err.code === "password_required" && err.status === 401 ? 403 : err.status;
      return replyError(c, err.code, status as ContentfulStatusCode, err.details);
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      const code = status === 413
        ? "payload_too_large"
        : status === 401
        ? "unauthorized"
        : "validation_failed";
      return replyError(c, code, status);
    }
    log(`[${c.get("requestId")}] ${c.req.method} ${c.req.path}: ${err?.stack ?? err}`);
    return replyError(c, "internal", 500, { request_id: c.get("requestId") });
  });

  return app;
}
