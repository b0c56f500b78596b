/** The test apps' KV handle holds atomic writes and watches to KV Connect's limits. */
import assert from "node:assert/strict";
import { KV_CONNECT_LIMITS, withKvConnectLimits } from "./helpers/kv_limits.ts";

Deno.test("more than 10 checks fail at the commit, 10 commit; more than 10 watched keys throw", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cubby-kv-limits-" });
  const kv = withKvConnectLimits(await Deno.openKv(`${dir}/kv.sqlite3`));
  try {
    const keys = Array.from({ length: KV_CONNECT_LIMITS.checks + 1 }, (_, i) => ["k", i]);
    const checks = keys.map((key) => ({ key, versionstamp: null }));
    const over = kv.atomic().check(...checks).set(["x"], 1);
    await assert.rejects(over.commit(), /Too many checks included in atomic write: 11/);
    const within = await kv.atomic().check(...checks.slice(1)).set(["x"], 2).commit();
    assert.equal(within.ok, true);
    assert.equal((await kv.get(["x"])).value, 2);
    assert.throws(() => kv.watch(keys), /Too many watched keys: 11/);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
