/**
 * The list of idempotent routes, in one place (docs/DECISIONS.md "Idempotency" copies it). Every
 * POST, PUT, PATCH and DELETE route the app serves under /api is either idempotent (its handlers
 * include `idempotent()`, after its auth guard) or listed below as not idempotent with the
 * reason, so a new write route cannot slip through either way. And no write route reads its
 * body before auth: an anonymous request with an Idempotency-Key is refused with its body unread.
 */
import { BYTE_ROUTES } from "./middleware.ts";
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { isIdempotentHandler } from "./idempotency.ts";

/** Real writes by the admin or an API key: a repeat of a key returns the first reply. */
const IDEMPOTENT = [
  "POST /api/paste",
  "PUT /api/pastes/:id",
  "POST /api/pastes/batch-delete",
  "DELETE /api/pastes/batch-delete",
  "POST /api/pastes/clear-expired",
  "POST /api/upload",
  "PUT /api/upload-direct/:filename",
  "POST /api/s3/presign",
  "POST /api/url/presign",
  "POST /api/s3/commit",
  "POST /api/url/commit",
  "POST /api/s3/multipart/init",
  "POST /api/url/multipart/init",
  "POST /api/s3/multipart/complete",
  "POST /api/url/multipart/complete",
  "POST /api/s3/multipart/abort",
  "POST /api/url/multipart/abort",
  "POST /api/url/cancel",
  "PUT /api/files/:id",
  "POST /api/files/batch-delete",
  "POST /api/files/clear-expired",
  "DELETE /api/files/batch-delete",
  "POST /api/admin/api-keys",
  "PUT /api/admin/api-keys/:id",
  "DELETE /api/admin/api-keys/:id",
  "POST /api/s3-configs",
  "PUT /api/s3-configs/:id",
  "DELETE /api/s3-configs/:id",
  "PUT /api/s3-configs/:id/set-default",
  "POST /api/mount/create",
  "PUT /api/mount/:id",
  "DELETE /api/mount/:id",
  "POST /api/fs/upload",
  "POST /api/fs/mkdir",
  "POST /api/fs/update",
  "POST /api/fs/batch-remove",
  "DELETE /api/fs/batch-remove",
  "POST /api/fs/rename",
  "POST /api/fs/create-share",
  "POST /api/fs/multipart/init",
  "POST /api/fs/multipart/complete",
  "POST /api/fs/multipart/abort",
  "POST /api/fs/presign/commit",
  "POST /api/fs/batch-copy",
  "POST /api/fs/tasks/:name",
  "POST /api/fs/tasks/:id/:action",
  "POST /api/fs/search/rebuild",
  "PUT /api/admin/settings/group/:group",
  "POST /api/admin/cache/clear",
  "POST /api/user/cache/clear",
  "POST /api/admin/backup/restore",
  "PUT /api/admin/backup/schedule",
  "POST /api/admin/backup/runs",
];

/** Write methods that are not idempotent, and why: the header is ignored there. */
const NOT_IDEMPOTENT: Record<string, string> = {
  "POST /api/paste/:slug": "a read: the password unlocks the content; it must run every time",
  "POST /api/public/files/:slug/verify": "a read: the password opens the share",
  "POST /api/admin/login": "hands out a session token, which must never be kept or replayed",
  "POST /api/admin/logout": "ends the caller's session; a repeat is harmless and must not replay",
  "POST /api/admin/change-password": "carries passwords and revokes the session it runs under",
  "PUT /api/storage/local/:configId/*": "authorised by its URL's signature, not by a principal",
  "POST /api/s3-configs/:id/test": "a connection check that changes nothing",
  "POST /api/url/info": "a look at a URL's name and size, changing nothing",
  "POST /api/s3/multipart/list-parts": "a read of the parts uploaded so far",
  "POST /api/s3/multipart/refresh-urls": "signs fresh part URLs; a replay would hand out old ones",
  "POST /api/fs/multipart/list-uploads": "a read of the uploads under way",
  "POST /api/fs/multipart/list-parts": "a read of the parts uploaded so far",
  "POST /api/fs/multipart/refresh-urls": "signs fresh part URLs; a replay would hand out old ones",
  "POST /api/fs/presign": "signs a PUT URL and records nothing; a replay would hand out an old one",
  "POST /api/fs/batch-copy-commit": "checks that copied files exist; changes nothing",
  "POST /api/fs/exists": "a read of which names a folder holds; changes nothing",
  "POST /api/admin/backup/create": "builds a backup download; changes nothing",
  "POST /api/admin/backup/validate": "checks a backup file; changes nothing",
};

/**
 * Route-level middleware under /api (method ALL), which are no routes of their own: auth, the
 * per-group guards, and the byte routes' plain-text errors (BYTE_ROUTES).
 */
const MIDDLEWARE = [
  "/api/*",
  "/api/admin/api-keys",
  "/api/admin/api-keys/*",
  "/api/admin/backup/*",
  "/api/storage/local/*",
  "/api/fs/*", // the request-scoped memo of mounts and storage configs
  ...BYTE_ROUTES.map((p) => `/api${p}`),
];

/** Writes anyone may send (they authenticate by a password or a signature, or not at all). */
const OPEN_WRITES = new Set([
  "POST /api/paste/:slug",
  "POST /api/public/files/:slug/verify",
  "POST /api/admin/login",
  "POST /api/admin/logout",
  "PUT /api/storage/local/:configId/*",
]);

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Every write route under /api, with whether one of its handlers is idempotent(). */
function writeRoutes(t: TestApp): Map<string, boolean> {
  const routes = new Map<string, boolean>();
  for (const r of t.app.routes) {
    if (!r.path.startsWith("/api/")) continue;
    if (r.method === "ALL") {
      assert.ok(MIDDLEWARE.includes(r.path), `ALL ${r.path}: a route for every method?`);
      continue;
    }
    if (!WRITE_METHODS.has(r.method)) continue;
    const key = `${r.method} ${r.path}`;
    routes.set(key, (routes.get(key) ?? false) || isIdempotentHandler(r.handler));
  }
  return routes;
}

Deno.test("every write route is idempotent or listed as not idempotent, with a reason", async () => {
  await using t = await createTestApp();
  const routes = writeRoutes(t);
  const idempotent = [...routes].filter(([, yes]) => yes).map(([k]) => k).sort();
  const not = [...routes].filter(([, yes]) => !yes).map(([k]) => k).sort();
  assert.deepEqual(idempotent, [...IDEMPOTENT].sort());
  assert.deepEqual(not, Object.keys(NOT_IDEMPOTENT).sort());
});

/** A small JSON body that records whether anyone read from it. */
function watchedBody() {
  const state = { pulled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled = true;
      controller.enqueue(new TextEncoder().encode("{}"));
      controller.close();
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

Deno.test("an anonymous write is refused before its body is read", async () => {
  await using t = await createTestApp();
  for (const route of writeRoutes(t).keys()) {
    if (OPEN_WRITES.has(route)) continue;
    const [method, pattern] = route.split(" ");
    // A task write or action that exists, so that its permission check is what answers.
    const path = pattern.replace(":name", "delete").replace(":action", "cancel")
      .replace(/:\w+/g, "x");
    const body = watchedBody();
    const res = await t.request(path, {
      method,
      body: body.stream,
      headers: { "Idempotency-Key": "anon", "content-type": "application/json" },
      // @ts-ignore: Deno's RequestInit takes duplex for stream bodies
      duplex: "half",
    });
    const text = await res.text();
    assert.equal(res.status, 401, `${route}: ${text}`);
    assert.equal(body.state.pulled, false, `${route} read its body before auth`);
  }
  for await (const entry of t.kv.list({ prefix: ["idempotency"] })) {
    assert.fail(`an anonymous key was stored: ${String(entry.key)}`);
  }
});
