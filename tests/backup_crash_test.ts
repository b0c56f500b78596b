/**
 * A restore killed with SIGKILL while it writes leaves the previous data intact: the real
 * server (main.ts) restores a large backup, the test polls the restore journal through
 * GET /api/admin/backup/status and kills the process once the journal says "applying", then
 * restarts it on the same data directory. Start-up rolls the journal back before listening.
 */
import assert from "node:assert/strict";
import { ulid } from "ulid";
import { join } from "node:path";
import { loginAdmin, startServer, type TestServer } from "./helpers/server.ts";
import { serverTest } from "./helpers/server_api.ts";
import { backupChecksum } from "../server/backup/backup_format.ts";

type Json = Record<string, unknown>;

/** Pastes in the backup: enough content (about 60 MB) that applying takes a few seconds. */
const BULK_PASTES = 2_000;
const BULK_BYTES = 30_000;

async function call(server: TestServer, token: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  if (typeof init.body === "string" && !headers.has("content-type")) {
    headers.set("content-type", "application/json");
  }
  const res = await fetch(`${server.url}/api${path}`, { ...init, headers });
  const body = await res.json();
  if (!res.ok) {
    throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.data;
}

/** Every record the restore would replace, as the API shows it. */
async function snapshot(server: TestServer, token: string) {
  const pastes = await call(server, token, "/pastes?limit=100");
  const contents: Record<string, string> = {};
  for (const p of pastes.items) {
    contents[p.slug] = (await call(server, token, `/pastes/${p.id}`)).content;
  }
  const stats = await call(server, token, "/admin/dashboard/stats");
  return {
    pastes,
    contents,
    keys: await call(server, token, "/admin/api-keys"),
    settings: await call(server, token, "/admin/settings"),
    totals: [stats.total_pastes, stats.total_api_keys],
  };
}

/** A valid Cubby backup of many large pastes, one API key and a setting. */
async function bigBackup(): Promise<string> {
  const now = new Date().toISOString();
  const data = {
    text_management: Array.from({ length: BULK_PASTES }, (_, i) => ({
      id: ulid(),
      slug: `bulk-${i}`,
      remark: null,
      password_hash: null,
      expires_at: null,
      max_views: 0,
      views: 0,
      created_at: now,
      updated_at: now,
      created_by: "admin",
      content: `${i}:${"数据".repeat(BULK_BYTES / 6)}`,
    })),
    key_management: [{
      id: ulid(),
      name: "from-backup",
      key_hash: "ab".repeat(32),
      key_prefix: "cb_xyz",
      permissions: 1,
      role: "GENERAL",
      basic_path: "/",
      is_guest: false,
      created_at: now,
      expires_at: null,
      last_used: null,
    }],
    system_settings: [{ key: "site_title", value: "Restored title" }],
  };
  const modules = Object.keys(data);
  return JSON.stringify({
    metadata: {
      app: "cubby",
      version: 1,
      app_version: "0.8.1",
      created_at: now,
      type: "partial",
      modules,
      counts: Object.fromEntries(
        modules.map((m) => [m, (data as Record<string, unknown[]>)[m].length]),
      ),
      checksum: await backupChecksum(data),
    },
    data,
  });
}

serverTest(
  "a restore killed with SIGKILL midway leaves the previous data intact after a restart",
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "cubby-crash-" });
    const server = await startServer({}, { dataDir, startTimeoutMs: 120_000 });
    try {
      let token = await loginAdmin(server);
      // The data that must survive: pastes (some over several chunks), a key, a setting.
      for (let i = 0; i < 20; i++) {
        const content = i % 5 === 0 ? `big ${i} ${"ü".repeat(100_000)}` : `previous paste ${i}`;
        await call(server, token, "/paste", {
          method: "POST",
          body: JSON.stringify({ content, slug: `prev-${i}`, max_views: i % 3 }),
        });
      }
      await call(server, token, "/paste/prev-1");
      await call(server, token, "/admin/api-keys", {
        method: "POST",
        body: JSON.stringify({ name: "previous key", permissions: { text: true } }),
      });
      await call(server, token, "/admin/settings/group/4", {
        method: "PUT",
        body: JSON.stringify({ site_title: "Previous title" }),
      });
      const before = await snapshot(server, token);
      assert.equal(before.pastes.total, 20);

      const body = await bigBackup();
      const restoring = fetch(`${server.url}/api/admin/backup/restore?mode=overwrite`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body,
      }).then((r) => r.status, () => "killed");

      // Poll the journal and kill the process once it is writing the new data.
      let seen: Json = {};
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        seen = await call(server, token, "/admin/backup/status");
        if (seen.phase === "applying" && (seen.done as number) > (seen.total as number) * 0.5) {
          break;
        }
        if (!seen.restoring && seen.phase === null && await Promise.race([restoring, null])) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(seen.phase, "applying", `caught while applying: ${JSON.stringify(seen)}`);
      assert.ok((seen.done as number) < (seen.total as number), "and before it was done");
      await server.kill9();
      console.log(`killed while applying mutation ${seen.done} of ${seen.total}`);
      assert.equal(await restoring, "killed");

      await server.restart();
      assert.match(server.output(), /interrupted restore was found and rolled back/);
      token = await loginAdmin(server);
      const status = await call(server, token, "/admin/backup/status");
      assert.deepEqual([status.restoring, status.phase, status.undo_entries], [false, null, 0]);
      assert.deepEqual(await snapshot(server, token), before, "the previous data is intact");
      const bulk = await fetch(`${server.url}/api/raw/bulk-0`);
      assert.equal(bulk.status, 404);
      await bulk.body?.cancel();

      // The instance still restores normally afterwards.
      const report = await call(server, token, "/admin/backup/restore?mode=merge", {
        method: "POST",
        body,
      });
      assert.equal(report.modules.text_management.restored, BULK_PASTES);
    } finally {
      await server.stop();
    }
    // With the server gone, read the KV file itself: no journal, no undo area, no orphan chunks.
    const kv = await Deno.openKv(join(dataDir, "cubby.kv"));
    try {
      assert.equal((await kv.get(["restore_journal"])).versionstamp, null);
      for await (const _ of kv.list({ prefix: ["restore_undo"] })) assert.fail("undo left over");
      const referenced = new Set<string>();
      for await (const e of kv.list<{ content_id: string }>({ prefix: ["pastes"] })) {
        referenced.add(e.value.content_id);
      }
      for await (const e of kv.list({ prefix: ["paste_chunks"] })) {
        assert.ok(referenced.has(String(e.key[1])), `orphaned chunk ${e.key}`);
      }
      assert.equal(referenced.size, 20 + BULK_PASTES);
    } finally {
      kv.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
);
