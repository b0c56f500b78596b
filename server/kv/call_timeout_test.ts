import assert from "node:assert/strict";
import { withCallTimeout } from "./call_timeout.ts";
import { AppError } from "../errors.ts";
import { startDenoKv } from "../../tests/helpers/denokv.ts";

const isUnavailable = (err: unknown) =>
  err instanceof AppError && err.code === "kv_unavailable" && err.status === 503;

Deno.test("calls to a remote KV that went away fail with 503 kv_unavailable instead of hanging", async () => {
  const denokv = await startDenoKv();
  const raw = await denokv.openKv();
  const kv = withCallTimeout(raw, 500);
  try {
    await kv.set(["x"], 1);
    assert.equal((await kv.get(["x"])).value, 1);
    const listed = [];
    for await (const e of kv.list({ prefix: [] })) listed.push(e.key);
    assert.deepEqual(listed, [["x"]]);

    // denokv stops: Deno's KV Connect client would retry each call for as long as it takes.
    await denokv.stop();
    await assert.rejects(() => kv.get(["a"]), isUnavailable);
    await assert.rejects(() => kv.getMany([["a"], ["b"]]), isUnavailable);
    await assert.rejects(() => kv.set(["a"], 1), isUnavailable);
    await assert.rejects(() => kv.atomic().set(["a"], 1).commit(), isUnavailable);
    await assert.rejects(async () => {
      for await (const _ of kv.list({ prefix: ["a"] })) { /* never reached */ }
    }, isUnavailable);
  } finally {
    raw.close();
    await denokv.stop();
  }
});
