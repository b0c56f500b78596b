import assert from "node:assert/strict";
import { forgetMemoized, memoized, withRequestMemo } from "./request_memo.ts";

/** A load that counts its calls and answers with the count. */
function counter() {
  let n = 0;
  return { load: () => Promise.resolve(++n), calls: () => n };
}

Deno.test("request memo: one read per name inside a request, every read outside", async () => {
  const c = counter();
  assert.equal(await memoized("mounts", c.load), 1);
  assert.equal(await memoized("mounts", c.load), 2, "no request: no memo");
  await withRequestMemo(async () => {
    const [a, b] = await Promise.all([memoized("mounts", c.load), memoized("mounts", c.load)]);
    assert.deepEqual([a, b], [3, 3], "concurrent reads share one load");
    assert.equal(await memoized("mounts", c.load), 3);
    assert.equal(await memoized("other", c.load), 4, "names are apart");
  });
  // Each request has its own memo, also when two run at once.
  const both = await Promise.all([
    withRequestMemo(() => memoized("mounts", c.load)),
    withRequestMemo(() => memoized("mounts", c.load)),
  ]);
  assert.deepEqual(both.sort(), [5, 6]);
  assert.equal(c.calls(), 6);
});

Deno.test("request memo: a write forgets what it changes; a failed read is not kept", async () => {
  await withRequestMemo(async () => {
    const c = counter();
    assert.equal(await memoized("storage_config:a", c.load), 1);
    assert.equal(await memoized("storage_config:b", c.load), 2);
    forgetMemoized("storage_config:a");
    assert.equal(await memoized("storage_config:a", c.load), 3);
    assert.equal(await memoized("storage_config:b", c.load), 2);

    let fail = true;
    const flaky = () => fail ? Promise.reject(new Error("KV down")) : Promise.resolve("ok");
    await assert.rejects(memoized("flaky", flaky), /KV down/);
    fail = false;
    assert.equal(await memoized("flaky", flaky), "ok");
  });
});

Deno.test("request memo: work that outlives its request reads again after a second", async () => {
  const c = counter();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let background!: Promise<number[]>;
  await withRequestMemo(async () => {
    assert.equal(await memoized("mounts", c.load), 1);
    // Started by the request and running on after it, like a copy task: it keeps the scope.
    background = (async () => {
      const soon = await memoized("mounts", c.load);
      await sleep(1_050);
      return [soon, await memoized("mounts", c.load)];
    })();
  });
  assert.deepEqual(await background, [1, 2]);
});
