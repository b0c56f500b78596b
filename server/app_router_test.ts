import assert from "node:assert/strict";
import { createTestApp } from "../tests/helpers/app.ts";

// Hono's SmartRouter keeps the first router that accepts every route. RegExpRouter (one regular
// expression per method, a map for fixed paths) refuses some mixes, such as a fixed segment next
// to a parameter for one method; then every request of the app goes through the slower
// TrieRouter. This fails when a new route brings that back.
Deno.test("every route of the app fits Hono's RegExpRouter", async () => {
  await using t = await createTestApp();
  assert.equal((await t.request("/api/version")).status, 200);
  const router = t.app.router as unknown as { activeRouter: { name: string } };
  assert.equal(router.activeRouter.name, "RegExpRouter");
});

Deno.test("the task writes keep their paths, guards and 404s", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const readOnly = await t.createKey({ mount_view: true });
  // Unknown names and actions are no route, whoever asks.
  assert.equal(await t.statusOf("POST", "/api/fs/tasks/bogus", undefined, {}), 404);
  assert.equal(await t.statusOf("POST", "/api/fs/tasks/x/bogus", undefined, {}), 404);
  assert.equal(await t.statusOf("POST", "/api/fs/tasks/__proto__", admin, {}), 404);
  // Known ones keep their guards.
  assert.equal(await t.statusOf("POST", "/api/fs/tasks/delete", undefined, { paths: ["/a"] }), 401);
  assert.equal(
    await t.statusOf("POST", "/api/fs/tasks/delete", readOnly.auth, { paths: ["/a"] }),
    403,
  );
  assert.equal(await t.statusOf("POST", "/api/fs/tasks/download", readOnly.auth, {}), 403);
  assert.equal(await t.statusOf("POST", "/api/fs/tasks/x/cancel"), 401);
  assert.equal(await t.statusOf("POST", "/api/fs/tasks/clear", readOnly.auth), 200);
  assert.equal(await t.statusOf("POST", "/api/fs/tasks/no-such-task/retry", admin), 404);
});
