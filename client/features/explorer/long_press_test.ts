import assert from "node:assert/strict";
import { LONG_PRESS_MS, LongPressTracker } from "./long_press.ts";

/** A manual clock: timers run when `advance` passes their time. */
function fakeTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  return {
    set: (fn: () => void, ms: number) => {
      const id = next++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clear: (id: unknown) => void pending.delete(id as number),
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...pending]) {
        if (t.at <= now) {
          pending.delete(id);
          t.fn();
        }
      }
    },
  };
}

Deno.test("long press: fires after 500 ms held still", () => {
  const timers = fakeTimers();
  const fired: [number, number][] = [];
  const t = new LongPressTracker((x, y) => fired.push([x, y]), timers);
  t.start(100, 100);
  timers.advance(LONG_PRESS_MS - 1);
  assert.equal(fired.length, 0);
  t.move(106, 106); // 8.5 px: within the tolerance
  timers.advance(1);
  assert.deepEqual(fired, [[100, 100]]);
  assert.equal(t.fired, true);
});

Deno.test("long press: moving more than 10 px or lifting early cancels", () => {
  const timers = fakeTimers();
  let fired = 0;
  const t = new LongPressTracker(() => fired++, timers);
  t.start(0, 0);
  t.move(0, 11);
  timers.advance(1000);
  assert.equal(fired, 0);
  t.start(0, 0);
  timers.advance(300);
  t.cancel();
  timers.advance(1000);
  assert.equal(fired, 0);
  assert.equal(t.fired, false);
});
