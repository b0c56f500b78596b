import assert from "node:assert/strict";
import { join } from "node:path";
import { consumeView, readViews } from "./view_counter.ts";

Deno.test("200 concurrent views of a 5-view counter: exactly 5 succeed", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(join(dir, "kv"));
  try {
    const results = await Promise.all(
      Array.from({ length: 200 }, () => consumeView(kv, ["views", "x"], 5)),
    );
    assert.equal(results.filter((r) => r.ok).length, 5);
    assert.equal(await readViews(kv, ["views", "x"]), 5);
    const unlimited = await Promise.all(
      Array.from({ length: 50 }, () => consumeView(kv, ["views", "y"], 0)),
    );
    assert.ok(unlimited.every((r) => r.ok));
    assert.equal(await readViews(kv, ["views", "y"]), 50);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
