/**
 * What a WebDAV PUT costs must not grow with the folder it writes into: a sync of a large folder
 * would otherwise be quadratic. The storage driver is observed through a counting proxy over the
 * real one (like tests/helpers/counting_kv.ts for KV): every call still reaches the disk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "../../tests/helpers/app.ts";
import { type Calls, callsDuring, countingKv } from "../../tests/helpers/counting_kv.ts";
import { ADMIN_BASIC, mountLocal } from "../../tests/helpers/fs_api.ts";
import type { StorageDriver } from "../storage/driver.ts";

/** The driver, with every method call tallied by name in `calls`. */
function countingDriver(driver: StorageDriver, calls: Calls): StorageDriver {
  return new Proxy(driver, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls[String(prop)] = (calls[String(prop)] ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
}

Deno.test("webdav: a PUT never lists its folder, and costs the same in a folder of 5 or 2,000 files", async () => {
  const kvCalls: Calls = {};
  await using t = await createTestApp({}, { wrapKv: (kv) => countingKv(kv, kvCalls) });
  const driverCalls: Calls = {};
  const storage = t.services.storageConfigs;
  const driverFor = storage.driverFor.bind(storage);
  storage.driverFor = async (rec) => countingDriver(await driverFor(rec), driverCalls);
  await mountLocal(t, "/team", { webdav_policy: "native_proxy" });
  const headers = { authorization: ADMIN_BASIC };
  assert.equal((await t.request("/dav/team/many", { method: "MKCOL", headers })).status, 201);
  const put = async (name: string) => {
    const res = await t.request(`/dav/team/many/${name}`, { method: "PUT", headers, body: "x" });
    assert.equal(res.status, 201, await res.text());
  };
  const total = (c: Calls) => Object.values(c).reduce((a, b) => a + b, 0);
  // The fewest of three: a settings read once its cache's TTL ran out is no cost of the PUT.
  const cost = async (name: string) => {
    let best: { kv: Calls; driver: Calls } | null = null;
    for (let i = 0; i < 3; i++) {
      const before = { ...driverCalls };
      const kv = await callsDuring(kvCalls, () => put(`${i}-${name}`));
      const driver: Calls = {};
      for (const [k, v] of Object.entries(driverCalls)) {
        if (v !== (before[k] ?? 0)) driver[k] = v - (before[k] ?? 0);
      }
      if (!best || total(kv) + total(driver) < total(best.kv) + total(best.driver)) {
        best = { kv, driver };
      }
    }
    return best!;
  };

  for (let i = 0; i < 5; i++) await put(`warm-${i}.txt`);
  const small = await cost("small.txt");
  const dir = join(t.dir, "storage", "many");
  for (let i = 0; i < 2_000; i++) await Deno.writeTextFile(join(dir, `f${i}.txt`), "x");
  const large = await cost("large.txt");

  assert.equal(small.driver.list, undefined, `listed: ${JSON.stringify(small.driver)}`);
  assert.deepEqual(large, small);
});
