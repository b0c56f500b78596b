import assert from "node:assert/strict";
import { LeaseRepo } from "./lease_repo.ts";
import { keys } from "./keys.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

Deno.test("lease: one owner at a time; the holder renews, another waits", async () => {
  await using t = await tempKv();
  const leases = new LeaseRepo(t.kv);
  assert.equal(await leases.acquire("sweeper", "a", 60_000), true);
  assert.equal(await leases.acquire("sweeper", "b", 60_000), false, "a holds it");
  assert.equal(await leases.acquire("sweeper", "a", 60_000), true, "the holder renews");
  assert.equal(await leases.acquire("startup", "b", 60_000), true, "names are apart");
});

Deno.test("lease: of many concurrent takers exactly one wins", async () => {
  await using t = await tempKv();
  const leases = new LeaseRepo(t.kv);
  const won = await Promise.all(
    Array.from({ length: 8 }, (_, i) => leases.acquire("startup", `owner-${i}`, 60_000)),
  );
  assert.equal(won.filter(Boolean).length, 1);
});

Deno.test("lease: a lapsed lease is taken over; release frees only one's own", async () => {
  await using t = await tempKv();
  const leases = new LeaseRepo(t.kv);
  // A lease an instance left behind when it died: past its time, still in KV (expiry is lazy).
  await t.kv.set(keys.leases("sweeper"), { owner: "a", until: Date.now() - 1 });
  assert.equal(await leases.acquire("sweeper", "b", 60_000), true, "a's lease lapsed");
  await leases.release("sweeper", "a");
  assert.equal(await leases.acquire("sweeper", "c", 60_000), false, "a cannot release b's");
  await leases.release("sweeper", "b");
  assert.equal(await leases.acquire("sweeper", "c", 60_000), true, "b released its own");
});
