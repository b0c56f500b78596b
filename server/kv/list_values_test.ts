import assert from "node:assert/strict";
import { getManyEntries, listValues } from "./list_values.ts";
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

Deno.test("getManyEntries: every key in order across reads, a missing one as null", async () => {
  await using t = await tempKv();
  for (let i = 0; i < 250; i++) if (i !== 123) await t.kv.set(["n", i], i);
  const keys = Array.from({ length: 250 }, (_, i) => ["n", 249 - i]);
  const got = await getManyEntries<number>(t.kv, keys);
  assert.deepEqual(got.map((e) => e.key), keys);
  assert.deepEqual(
    got.map((e) => e.value),
    keys.map(([, i]) => i === 123 ? null : i),
  );
  assert.deepEqual(await getManyEntries(t.kv, []), []);
});
