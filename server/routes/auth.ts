/** Login, logout, credential checks and account changes (docs/PRODUCT.md §7.1). */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import { assertLoggedIn, requireAdmin } from "../http/middleware.ts";
import { ChangePasswordSchema, LoginSchema } from "../../shared/schemas/auth.ts";
import { maskToPermissions } from "../../shared/permissions.ts";
import { AppError } from "../errors.ts";

export function authRoutes() {
  const app = new Hono<AppEnv>();

  // Login, logout and the account change never carry idempotent(): a session token or a
  // password must not be kept in a stored reply or fingerprint.
  app.post("/admin/login", async (c) => {
    const { username, password, device_token } = await readJson(c, LoginSchema);
    const result = await c.get("services").auth.login(
      username,
      password,
      c.get("clientIp"),
      device_token,
    );
    return ok(c, result);
  });

  // Idempotent: an expired or unknown token is already logged out, so it gets 200, not 401
  // (a client that logs out on 401 would otherwise loop).
  app.post("/admin/logout", async (c) => {
    await c.get("services").auth.logout(c.get("auth"));
    return ok(c, null);
  });

  app.get("/test/admin-token", requireAdmin, (c) => {
    const auth = c.get("auth");
    return ok(c, { valid: true, username: auth.type === "admin" ? auth.username : null });
  });

  app.get("/test/api-key", (c) => {
    const auth = c.get("auth");
    if (auth.type === "none" && !c.req.header("authorization")) {
      throw new AppError("unauthorized", 401);
    }
    if (auth.type === "none" && auth.failure === "too_many_requests") assertLoggedIn(auth);
    if (auth.type !== "apikey") throw new AppError("api_key_invalid", 401);
    return ok(c, {
      name: auth.key.name,
      permissions: maskToPermissions(auth.permissions),
      permission_mask: auth.permissions,
      key_info: { id: auth.key.id, name: auth.key.name, basic_path: auth.key.basic_path },
      expires_at: auth.key.expires_at,
      is_guest: auth.key.is_guest,
    });
  });

  app.post("/admin/change-password", requireAdmin, async (c) => {
    const input = await readJson(c, ChangePasswordSchema);
    await c.get("services").auth.changeAccount(c.get("auth"), input, c.get("clientIp"));
    return ok(c, null);
  });

  return app;
}
