import assert from "node:assert/strict";
import type { Calls } from "../../tests/helpers/counting_kv.ts";
import { withCountedKv } from "../../tests/helpers/kv.ts";
import { CommitGroups, commitGroupsOf, LIMITS, localFile } from "./commit_groups.ts";
import { proxyKv } from "./kv_proxy.ts";

const withKv = (fn: (kv: Deno.Kv, calls: Calls) => Promise<void>) =>
  withCountedKv(fn, "cubby-commit-groups-");

/** A create like a paste's: checks that its keys are free, writes them, counts one. */
const create = (groups: CommitGroups, id: string) =>
  groups.atomic()
    .check({ key: ["rec", id], versionstamp: null })
    .check({ key: ["slug", id], versionstamp: null })
    .set(["rec", id], { id })
    .set(["slug", id], id)
    .sum(["created"], 1n)
    .commit();

Deno.test("commit groups: concurrent commits share transactions; each gets its answer", async () => {
  for (const checks of [10, 100]) {
    await withKv(async (kv, calls) => {
      const groups = new CommitGroups(kv, { checks, inFlight: 1 });
      assert.equal((await create(groups, "alone")).ok, true);
      assert.equal(calls.commit, 1, "a lone commit goes at once");

      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => create(groups, `c${i}`)),
      );
      assert.ok(results.every((r) => r.ok));
      // The first goes alone (nothing is in flight yet); the other 29 gather behind it, as many
      // to a commit as its checks allow (2 each): 5 at 10 checks, all 29 at 100.
      const most = 1 + Math.ceil(29 / Math.floor(checks / 2));
      const made = calls.commit! - 1;
      assert.ok(made <= most, `${checks} checks: 30 commits took ${made} transactions`);
      assert.equal((await kv.get<Deno.KvU64>(["created"])).value?.value, 31n, "sums add up");
      for (let i = 0; i < 30; i++) assert.equal((await kv.get(["slug", `c${i}`])).value, `c${i}`);
    });
  }
});

Deno.test("commit groups: a remote handle keeps 16 commits in flight of 10 checks; a local file's one of 100", async () => {
  await withKv(async (kv, calls) => {
    const remote = commitGroupsOf(kv);
    assert.equal(commitGroupsOf(kv), remote, "one group per handle");
    await Promise.all(Array.from({ length: 40 }, (_, i) => create(remote, `r${i}`)));
    // The first 16 go at once, each alone; the 24 others gather behind them, 5 to a commit.
    assert.equal(calls.commit, 16 + 5);
  });
  await withKv(async (kv, calls) => {
    const local = commitGroupsOf(localFile(kv));
    await Promise.all(Array.from({ length: 40 }, (_, i) => create(local, `l${i}`)));
    assert.equal(calls.commit, 1 + 1, "the first alone, then the 39 others (78 checks) in one");
  });
});

Deno.test("commit groups: two claims of one key in one wave: exactly one wins", async () => {
  for (const limits of [LIMITS.localFile, LIMITS.remote]) {
    await withKv(async (kv) => {
      const groups = new CommitGroups(kv, limits);
      for (let round = 0; round < 5; round++) {
        const claims = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            groups.atomic()
              .check({ key: ["taken", round], versionstamp: null })
              .set(["taken", round], i)
              .commit()),
        );
        assert.equal(claims.filter((r) => r.ok).length, 1, `round ${round}`);
        const winner = claims.findIndex((r) => r.ok);
        assert.equal((await kv.get(["taken", round])).value, winner);
      }
    });
  }
});

Deno.test("commit groups: a caller whose check fails, or whose write KV refuses, fails alone", async () => {
  await withKv(async (kv) => {
    await kv.set(["rec", "exists"], { id: "exists" });
    const groups = new CommitGroups(kv, LIMITS.localFile);
    const block = create(groups, "first"); // goes alone; the rest gather behind it
    const [before, failing, tooLarge, after] = await Promise.all([
      create(groups, "before"),
      create(groups, "exists"),
      groups.atomic().set(["big"], "x".repeat(70_000)).commit(),
      create(groups, "after"),
    ].map((p) => p.then((r) => r, (e: unknown) => e)));
    assert.equal((await block).ok, true);
    assert.equal((before as Deno.KvCommitResult).ok, true);
    assert.equal((failing as Deno.KvCommitError).ok, false);
    assert.ok(tooLarge instanceof TypeError, String(tooLarge));
    assert.equal((after as Deno.KvCommitResult).ok, true);
    assert.equal((await kv.get(["slug", "exists"])).value, null, "the failed caller wrote nothing");
    assert.equal((await kv.get<Deno.KvU64>(["created"])).value?.value, 3n);
  });
});

Deno.test("commit groups: a bad check costs the others one read and one commit, not one each", async () => {
  await withKv(async (kv, calls) => {
    const groups = new CommitGroups(kv, LIMITS.localFile);
    await kv.set(["slug", "taken"], "someone else's");
    const first = create(groups, "first"); // goes alone; the rest gather behind it
    const wave = Promise.all(Array.from({ length: 20 }, (_, i) => create(groups, `w${i}`)));
    const bad = create(groups, "taken");
    const more = Promise.all(Array.from({ length: 8 }, (_, i) => create(groups, `m${i}`)));
    assert.equal((await first).ok, true);
    assert.ok((await wave).every((r) => r.ok));
    assert.equal((await bad).ok, false);
    assert.ok((await more).every((r) => r.ok));
    // The first alone; the 29 others' group fails on the taken slug; a read finds it; the 28
    // others commit together.
    assert.equal(calls.commit, 3);
    assert.ok(calls.getMany! <= 6, `${calls.getMany} reads`);
    assert.equal((await kv.get(["slug", "taken"])).value, "someone else's");
    assert.equal((await kv.get(["rec", "taken"])).value, null, "the refused caller wrote nothing");
    assert.equal((await kv.get<Deno.KvU64>(["created"])).value?.value, 29n);
  });
});

Deno.test("commit groups: an unknown outcome (a timeout after the write) reaches every caller, untried", async () => {
  await withKv(async (kv, calls) => {
    let late = false;
    const slow = proxyKv(kv, () => ({
      commit: async (commit) => {
        const timesOut = late; // as the commit starts
        const res = await commit();
        if (timesOut) throw new Error("KV call timed out"); // landed, but the answer came late
        return res;
      },
    }), (_prop, real) => real);
    const groups = new CommitGroups(slow, LIMITS.localFile);
    const first = create(groups, "first");
    late = true;
    const wave = Array.from({ length: 5 }, (_, i) => create(groups, `w${i}`));
    assert.equal((await first).ok, true);
    for (const r of wave) await assert.rejects(r, /timed out/);
    assert.equal(calls.commit, 2, "the group's commit was not made again, alone or together");
    // It had landed: a caller that tried again would have found its keys taken.
    assert.equal((await kv.get<Deno.KvU64>(["created"])).value?.value, 6n);
  });
});

Deno.test("commit groups: a check of a key an earlier caller writes waits for the next group", async () => {
  await withKv(async (kv) => {
    const groups = new CommitGroups(kv, LIMITS.localFile);
    const first = await kv.set(["doc"], 1);
    const block = create(groups, "block");
    // Both read the document at `first`; the first edit wins, the second must fail as it would
    // after the first alone, even though both were waiting together.
    const [a, b] = await Promise.all([
      groups.atomic().check({ key: ["doc"], versionstamp: first.versionstamp }).set(["doc"], 2)
        .commit(),
      groups.atomic().check({ key: ["doc"], versionstamp: first.versionstamp }).set(["doc"], 3)
        .commit(),
    ]);
    await block;
    assert.equal(a.ok, true);
    assert.equal(b.ok, false);
    assert.equal((await kv.get(["doc"])).value, 2);
  });
});

Deno.test("commit groups: options, min, max and enqueue pass through", async () => {
  await withKv(async (kv) => {
    const groups = commitGroupsOf(kv);
    const r = await groups.atomic().set(["short"], "lived", { expireIn: 60_000 }).min(["m"], 5n)
      .max(["x"], 7n).delete(["nothing"]).commit();
    assert.equal(r.ok, true);
    assert.equal((await kv.get(["short"])).value, "lived");
    assert.equal((await kv.get<Deno.KvU64>(["x"])).value?.value, 7n);
    const queued = Promise.withResolvers<unknown>();
    kv.listenQueue((msg) => queued.resolve(msg));
    const e = await groups.atomic().set(["with"], "queue").enqueue({ hello: "queue" }).commit();
    assert.equal(e.ok, true);
    assert.deepEqual(await queued.promise, { hello: "queue" });
    assert.equal((await kv.get(["with"])).value, "queue");
  });
});
