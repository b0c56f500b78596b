import assert from "node:assert/strict";
import { join } from "node:path";
import { countView, readViewCounts } from "./view_counter.ts";

Deno.test("200 concurrent views of a 5-view counter: exactly 5 succeed; unlimited adds up", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(join(dir, "kv"));
  try {
    await kv.set(["rec", "x"], { name: "x" });
    const rec = await kv.get(["rec", "x"]);
    const record = { key: rec.key, versionstamp: rec.versionstamp! };
    const results = await Promise.all(
      Array.from({ length: 200 }, () => countView(kv, ["views", "x"], record, 5)),
    );
    assert.equal(results.filter((r) => r.ok).length, 5);
    const unlimited = await Promise.all(
      Array.from({ length: 50 }, () => countView(kv, ["views", "y"], record, 0)),
    );
    assert.ok(unlimited.every((r) => r.ok));
    assert.deepEqual(await readViewCounts(kv, [["views", "x"], ["views", "y"], ["views", "z"]]), [
      5,
      50,
      0,
    ]);
    await kv.set(["rec", "x"], { name: "edited" });
    assert.deepEqual(await countView(kv, ["views", "y"], record, 0), {
      ok: false,
      reason: "changed",
    });
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
