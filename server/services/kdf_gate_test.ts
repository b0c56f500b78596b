import assert from "node:assert/strict";
import { KdfGate } from "./kdf_gate.ts";
import { AppError } from "../errors.ts";

/** A task that runs until released, recording how many run at once. */
function gatedTasks() {
  let running = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const task = () => {
    running++;
    peak = Math.max(peak, running);
    return new Promise<string>((resolve) =>
      releases.push(() => {
        running--;
        resolve("done");
      })
    );
  };
  return { task, releases, peak: () => peak };
}

const is429 = (err: unknown) => err instanceof AppError && err.status === 429;

Deno.test("KdfGate runs at most `concurrency` at once, queues `queue`, refuses the rest", async () => {
  const gate = new KdfGate(2, 3);
  const { task, releases, peak } = gatedTasks();
  const runs = Array.from({ length: 10 }, () => gate.run(task).catch((err) => err));
  await Promise.resolve();
  assert.deepEqual(gate.load, { active: 2, waiting: 3 });
  // Release until every admitted task has run; each release lets a waiter in.
  while (releases.length) {
    releases.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  }
  const results = await Promise.all(runs);
  assert.equal(results.filter((r) => r === "done").length, 5);
  assert.equal(results.filter(is429).length, 5);
  assert.equal(peak(), 2);
  assert.deepEqual(gate.load, { active: 0, waiting: 0 });
});

Deno.test("KdfGate refuses a waiter after its longest wait, and frees the slot after errors", async () => {
  const gate = new KdfGate(1, 5, 30);
  const { task, releases } = gatedTasks();
  const first = gate.run(task);
  const waiter = gate.run(task).catch((err) => err);
  assert.ok(is429(await waiter));
  assert.deepEqual(gate.load, { active: 1, waiting: 0 });
  releases.shift()!();
  assert.equal(await first, "done");
  await assert.rejects(gate.run(() => Promise.reject(new Error("boom"))), /boom/);
  assert.deepEqual(gate.load, { active: 0, waiting: 0 });
});
