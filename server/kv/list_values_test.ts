import assert from "node:assert/strict";
import { listValues } from "./list_values.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

Deno.test("listValues: the values under a prefix only, in key order", async () => {
  await using t = await tempKv();
  await t.kv.set(["things", "b"], 2);
  await t.kv.set(["things", "a"], 1);
  await t.kv.set(["things", "c", "deep"], 3);
  await t.kv.set(["thingsx", "a"], 99);
  await t.kv.set(["other"], 0);
  assert.deepEqual(await listValues<number>(t.kv, ["things"]), [1, 2, 3]);
  assert.deepEqual(await listValues(t.kv, ["none"]), []);
});
