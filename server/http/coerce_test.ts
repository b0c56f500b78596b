import assert from "node:assert/strict";
import { z } from "zod";
import { parseLenient } from "./coerce.ts";

const Schema = z.object({
  size: z.number().int().min(0).optional(),
  slug: z.string().optional(),
  remark: z.string().nullable().optional(),
  flag: z.boolean().optional(),
  either: z.union([z.number(), z.literal("auto")]).optional(),
  nested: z.object({ n: z.number().optional() }).optional(),
  list: z.array(z.number()).optional(),
});

Deno.test("numeric strings become numbers where a number is expected", () => {
  const r = parseLenient(Schema, { size: "23", either: "7", nested: { n: " 5 " }, list: ["1", 2] });
  assert.ok(r.success);
  assert.deepEqual(r.data, { size: 23, either: 7, nested: { n: 5 }, list: [1, 2] });
});

Deno.test("null is absent unless the schema accepts null", () => {
  const r = parseLenient(Schema, { slug: null, remark: null, size: null });
  assert.ok(r.success);
  assert.deepEqual(r.data, { remark: null });
});

Deno.test("boolean strings and 0/1 become booleans where a boolean is expected", () => {
  assert.deepEqual(parseLenient(Schema, { flag: "true" }).data, { flag: true });
  assert.deepEqual(parseLenient(Schema, { flag: 0 }).data, { flag: false });
});

Deno.test("anything else still fails, with the real issue, and the input is not changed", () => {
  const input = { size: "twenty", slug: 5, flag: "yes" };
  const r = parseLenient(Schema, input);
  assert.equal(r.success, false);
  const paths = r.error!.issues.map((i) => i.path.join("."));
  assert.deepEqual(paths.sort(), ["flag", "size", "slug"]);
  assert.deepEqual(input, { size: "twenty", slug: 5, flag: "yes" });
  assert.equal(parseLenient(Schema, { size: "-1" }).success, false, "the number is still checked");
  assert.equal(parseLenient(Schema, null).success, false);
});
