/** Building the services: instances started together on one KV, and the gates that stop one. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { createServices } from "./container.ts";

Deno.test("four instances started at once on one empty KV: one admin, one default storage, migrations once", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(join(dir, "cubby.kv"));
  try {
    const config = {
      ...loadConfig({ DATA_DIR: dir, ENCRYPTION_SECRET: "shared" }),
      kdfIterations: 1_000,
    };
    const logs: string[] = [];
    const all = await Promise.all(
      Array.from({ length: 4 }, () => createServices(config, kv, (m) => logs.push(m))),
    );
    await Promise.all(all.map((s) => s.auth.ensureAdmin()));
    // Each picked a random password; exactly one account was made, and only its maker says so.
    const created = logs.filter((l) => l.includes("Cubby created the admin account"));
    assert.equal(created.length, 1, logs.join("\n"));
    const password = created[0].match(/password: (\S+)/)![1];
    assert.ok((await all[3].auth.login("admin", password, "127.0.0.1")).token);
    const configs = [];
    for await (const e of kv.list({ prefix: ["storage_configs"] })) configs.push(e);
    assert.equal(configs.length, 1, "one default storage config");
    const migrations = [];
    for await (const e of kv.list({ prefix: ["migrations"] })) migrations.push(e.key[1]);
    assert.deepEqual(migrations.sort(), [1, 2]);
    assert.equal(logs.filter((l) => l.startsWith("Migration 1 applied")).length, 1);
    for (const s of all) await s.viewTally.close();
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
