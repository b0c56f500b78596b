/**
 * POST /share-target without a service worker (first visit, worker not installed yet, or a
 * browser without one): the action of the manifest's share_target must never 404. Text fields
 * go to the editor in the query string (`/?title=…&text=…&url=…`); shared files cannot be handed
 * to the page without a worker, so the sender lands on the upload screen to pick them again.
 * The body is read only up to a small limit: a file share never needs more here.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../http/types.ts";
import { SHARE_TARGET_PATH } from "../../shared/pwa.ts";

const MAX_SHARE_BODY = 1024 * 1024;
const MAX_TEXT_FIELD = 8 * 1024;

export function shareTargetRoutes() {
  const app = new Hono<AppEnv>();
  app.post(
    SHARE_TARGET_PATH,
    bodyLimit({ maxSize: MAX_SHARE_BODY, onError: (c) => c.redirect("/upload", 303) }),
    async (c) => {
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch {
        return c.redirect("/", 303);
      }
      const hasFiles = form.getAll("files").some((v) => typeof v !== "string" && v.size > 0);
      if (hasFiles) return c.redirect("/upload", 303);
      const query = new URLSearchParams();
      for (const name of ["title", "text", "url"]) {
        const value = form.get(name);
        if (typeof value === "string" && value.trim()) {
          query.set(name, value.slice(0, MAX_TEXT_FIELD));
        }
      }
      const qs = query.toString();
      return c.redirect(qs ? `/?${qs}` : "/", 303);
    },
  );
  return app;
}
