/**
 * Views of unlimited shares wait in memory (VIEW_FLUSH_MS); a graceful stop (SIGTERM) writes
 * them before the KV closes. A crash (SIGKILL) may lose those statistics, never a limited view,
 * which is committed before its content is sent.
 */
import assert from "node:assert/strict";
import { startServer, TEST_ADMIN } from "./helpers/server.ts";

Deno.test("unlimited views survive SIGTERM; a crash loses only unlimited ones", async () => {
  // An interval far longer than the test: only the shutdown can write the pending views.
  const server = await startServer({ VIEW_FLUSH_MS: "60000" });
  try {
    const login = async () => {
      const res = await fetch(`${server.url}/api/admin/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(TEST_ADMIN),
      });
      return `Bearer ${(await res.json()).data.token}`;
    };
    let auth = await login();
    const create = async (body: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/api/paste`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: auth },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 201);
      return (await res.json()).data as { id: string; slug: string };
    };
    const viewsOf = async (id: string) => {
      const res = await fetch(`${server.url}/api/pastes/${id}`, {
        headers: { authorization: auth },
      });
      return (await res.json()).data.views as number;
    };
    const view = async (slug: string, n: number) => {
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${server.url}/api/raw/${slug}`);
        assert.equal(res.status, 200);
        await res.text();
      }
    };

    const open = await create({ content: "unlimited" });
    await view(open.slug, 5);
    assert.equal(await viewsOf(open.id), 5, "pending views are shown before any flush");
    await server.restart(); // SIGTERM, then start again on the same data
    auth = await login();
    assert.equal(await viewsOf(open.id), 5, "the graceful stop wrote them");

    const limited = await create({ content: "limited", max_views: 10 });
    await view(limited.slug, 3);
    await view(open.slug, 2);
    await server.kill9();
    await server.restart();
    auth = await login();
    assert.equal(await viewsOf(limited.id), 3, "limited views are committed one by one");
    assert.equal(await viewsOf(open.id), 5, "the crash lost the two pending statistics");
  } catch (err) {
    throw new Error(`${err}\n--- server output ---\n${server.output()}`);
  } finally {
    await server.stop();
  }
});
