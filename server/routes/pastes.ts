/**
 * Text shares (docs/PRODUCT.md §7.2): public open and raw routes, and management routes for the
 * admin and keys with the TEXT permission (key users only touch their own pastes).
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok, wantsPlainText } from "../http/envelope.ts";
import { readJson, readQuery, validate } from "../http/validate.ts";
import { requirePermission } from "../http/middleware.ts";
import { userContentHeaders } from "../storage/object_response.ts";
import { Permission } from "../../shared/permissions.ts";
import { MAX_PASTE_BYTES } from "../../shared/constants.ts";
import { markCacheableShare } from "../http/offline_cache.ts";
import { bodyLimit, readBodyText } from "../http/body.ts";
import { idempotent } from "../http/idempotency.ts";
import {
  PasteBatchDeleteSchema,
  PasteClearExpiredSchema,
  type PasteCreate,
  PasteCreateSchema,
  PasteListQuerySchema,
  PasteOpenSchema,
  PasteUpdateSchema,
} from "../../shared/schemas/pastes.ts";

/**
 * Bodies that carry content: JSON escaping may grow 10 MB of text, so allow 3× before
 * refusing with 413; the schema then enforces the exact 10 MB (400 content_too_large).
 */
const contentBodyLimit = bodyLimit(3 * MAX_PASTE_BYTES);

/**
 * The create body: JSON, or (for `curl` and pipes) a `text/plain` body or an urlencoded form's
 * `content` field as the content, with the other options from the query string.
 */
async function readPasteCreate(c: Context<AppEnv>): Promise<PasteCreate> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "text/plain") {
    return validate(PasteCreateSchema, { ...c.req.query(), content: await readBodyText(c) });
  }
  if (type === "application/x-www-form-urlencoded") {
    const form = Object.fromEntries(new URLSearchParams(await readBodyText(c)));
    return validate(PasteCreateSchema, { ...c.req.query(), ...form });
  }
  return await readJson(c, PasteCreateSchema);
}

/** The headers of a raw paste: user content, sandboxed, as plain text. */
const RAW_HEADERS: Record<string, string> = {
  ...userContentHeaders(),
  "Content-Type": "text/plain; charset=utf-8",
};

export function pasteRoutes() {
  const app = new Hono<AppEnv>();
  const text = requirePermission(Permission.TEXT);

  app.post("/paste", text, contentBodyLimit, idempotent(), async (c) => {
    const input = await readPasteCreate(c);
    const view = await c.get("services").pastes.create(c.get("auth"), input);
    if (wantsPlainText(c)) {
      return c.text(`${new URL(view.url, c.req.url)}\n`, 201);
    }
    return ok(c, view, 201);
  });

  app.get("/paste/:slug", async (c) => {
    const view = await c.get("services").pastes.open(c.req.param("slug"), c.get("auth"));
    markCacheableShare(c, view);
    return ok(c, view);
  });

  // A read (the password unlocks the content): never idempotent, so never replayed.
  app.post("/paste/:slug", async (c) => {
    const { password } = await readJson(c, PasteOpenSchema);
    const view = await c.get("services").pastes.unlock(
      c.req.param("slug"),
      password,
      c.get("auth"),
      c.get("clientIp"),
    );
    return ok(c, view);
  });

  app.get("/raw/:slug", async (c) => {
    const body = await c.get("services").pastes.openRaw(
      c.req.param("slug"),
      { token: c.req.query("t"), password: c.req.query("password") },
      c.get("auth"),
      c.get("clientIp"),
    );
    return c.body(body, 200, RAW_HEADERS);
  });

  app.get("/pastes", text, async (c) => {
    const query = readQuery(c, PasteListQuerySchema);
    return ok(c, await c.get("services").pastes.list(c.get("auth"), query));
  });

  // DELETE per docs/PRODUCT.md §7.2; the offline queue replays it as POST (docs/PRODUCT.md §7.9).
  app.on(["DELETE", "POST"], "/pastes/batch-delete", text, idempotent(), async (c) => {
    const { ids } = await readJson(c, PasteBatchDeleteSchema);
    return ok(c, await c.get("services").pastes.deleteMany(c.get("auth"), ids));
  });

  app.post("/pastes/clear-expired", text, idempotent(), async (c) => {
    await readJson(c, PasteClearExpiredSchema);
    return ok(c, await c.get("services").pastes.clearExpired(c.get("auth")));
  });

  app.get("/pastes/:id", text, async (c) => {
    return ok(c, await c.get("services").pastes.get(c.get("auth"), c.req.param("id")));
  });

  app.put("/pastes/:id", text, contentBodyLimit, idempotent(), async (c) => {
    const input = await readJson(c, PasteUpdateSchema);
    const view = await c.get("services").pastes.update(c.get("auth"), c.req.param("id"), input);
    return ok(c, view);
  });

  return app;
}
