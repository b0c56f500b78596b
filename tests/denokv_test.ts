/**
 * denokv, the KV Connect server that several Cubby instances share, seen from two connections
 * as two instances see it: writes are visible across connections, and an atomic commit checked
 * against a versionstamp that the other connection moved fails.
 */
import assert from "node:assert/strict";
import { startDenoKv } from "./helpers/denokv.ts";

Deno.test("denokv: a write through one connection is read through another", async () => {
  await using server = await startDenoKv();
  const a = await server.openKv();
  const b = await server.openKv();
  try {
    await a.set(["share", "s1"], { title: "hello" });
    const seen = await b.get<{ title: string }>(["share", "s1"]);
    assert.deepEqual(seen.value, { title: "hello" });
    await b.delete(["share", "s1"]);
    assert.equal((await a.get(["share", "s1"])).value, null);
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("denokv: an atomic check fails after the other connection commits", async () => {
  await using server = await startDenoKv();
  const a = await server.openKv();
  const b = await server.openKv();
  try {
    await a.set(["counter"], 1);
    const readA = await a.get<number>(["counter"]);
    const readB = await b.get<number>(["counter"]);
    assert.equal(readA.versionstamp, readB.versionstamp);

    const first = await b.atomic().check(readB).set(["counter"], readB.value! + 1).commit();
    assert.equal(first.ok, true);
    const second = await a.atomic().check(readA).set(["counter"], readA.value! + 1).commit();
    assert.equal(second.ok, false, "a commit checked against a stale versionstamp must fail");

    const now = await a.get<number>(["counter"]);
    assert.equal(now.value, 2);
    const retry = await a.atomic().check(now).set(["counter"], now.value! + 1).commit();
    assert.equal(retry.ok, true);
    assert.equal((await b.get<number>(["counter"])).value, 3);
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("denokv: a wrong access token is refused", async () => {
  await using server = await startDenoKv();
  Deno.env.set("DENO_KV_ACCESS_TOKEN", "not-the-token");
  try {
    await assert.rejects(Deno.openKv(server.url), /401 Unauthorized/);
  } finally {
    Deno.env.set("DENO_KV_ACCESS_TOKEN", server.token);
  }
});
