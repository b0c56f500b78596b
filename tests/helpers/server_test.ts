/** The real-server helper: health over HTTP, data kept in KV across restarts and crashes. */
import assert, { equal, match, notEqual } from "node:assert/strict";
import { existsSync } from "node:fs";
import { loginAdmin, startFailure, startServer, TEST_ADMIN } from "./server.ts";

Deno.test("startServer: the real server answers on 127.0.0.1 and restarts on its data", async () => {
  const server = await startServer();
  try {
    match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    notEqual(server.port, 0);
    match(server.output(), /Cubby listening on http:\/\/127\.0\.0\.1:\d+/);

    const health = await fetch(`${server.url}/api/health`);
    equal(health.status, 200);
    equal((await health.json()).data.status, "ok");

    // A session made before the restart still works after it: sessions live in KV.
    const token = await loginAdmin(server);
    await server.restart();
    const check = await fetch(`${server.url}/api/test/admin-token`, {
      headers: { authorization: `Bearer ${token}` },
    });
    equal(check.status, 200);
    await check.body?.cancel();

    // After a crash (SIGKILL) the account is still there, with the same password.
    await server.kill9();
    await server.restart();
    assert(await loginAdmin(server, TEST_ADMIN));
    const wrong = await fetch(`${server.url}/api/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: TEST_ADMIN.username, password: "not-the-password" }),
    });
    equal(wrong.status, 401);
    await wrong.body?.cancel();
  } finally {
    await server.stop();
  }
  equal(existsSync(server.dataDir), false);
});

Deno.test("startServer: without admin credentials a password is generated and printed", async () => {
  await using server = await startServer({ ADMIN_USERNAME: "", ADMIN_PASSWORD: "" });
  const password = server.output().match(/password: (\S+)/)?.[1];
  if (!password) throw new Error(`no generated password in:\n${server.output()}`);
  assert(await loginAdmin(server, { username: "admin", password }));
});

Deno.test("startServer: a server that cannot start fails with its output", async () => {
  const message = await startFailure({ PORT: "not-a-port" });
  match(message, /exited early/);
  match(message, /Invalid PORT/);
});
