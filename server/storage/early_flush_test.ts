import assert from "node:assert/strict";
import { join } from "node:path";
import { EarlyFlush, FLUSH_EVERY } from "./early_flush.ts";

Deno.test("EarlyFlush starts one flush per FLUSH_EVERY bytes, one at a time", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "f.bin");
    await Deno.writeFile(path, new Uint8Array(1024));
    const early = new EarlyFlush(path);
    early.after(FLUSH_EVERY - 1);
    assert.equal(early.started, 0, "not before FLUSH_EVERY bytes");
    early.after(FLUSH_EVERY);
    early.after(2 * FLUSH_EVERY); // the first one is still running
    assert.equal(early.started, 1);
    await early.close();
    const again = new EarlyFlush(path);
    for (let n = 1; n <= 3; n++) {
      again.after(n * FLUSH_EVERY);
      await again.close(); // waits for it; the next one may start
    }
    assert.equal(again.started, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("EarlyFlush keeps a failed flush for close(), never as an unhandled rejection", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const early = new EarlyFlush(join(dir, "gone.bin")); // nothing to open
    early.after(FLUSH_EVERY);
    await new Promise((r) => setTimeout(r, 20)); // the failure happens with nobody awaiting it
    assert.throws(() => early.after(2 * FLUSH_EVERY), Deno.errors.NotFound, "the next write stops");
    assert.equal(early.started, 1, "no flush after a failed one");
    await assert.rejects(() => early.close(), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
