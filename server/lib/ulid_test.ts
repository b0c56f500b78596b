import assert from "node:assert/strict";
import { decodeTime, isValid } from "ulid";
import { ulid } from "./ulid.ts";

Deno.test("ulid: valid ULIDs of the current or given time, each distinct", () => {
  const before = Date.now();
  const ids = Array.from({ length: 2000 }, () => ulid());
  const after = Date.now();
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert.ok(isValid(id), id);
    const t = decodeTime(id);
    assert.ok(t >= before && t <= after, `${id}: ${t} not in [${before}, ${after}]`);
  }
  assert.equal(decodeTime(ulid(1_700_000_000_123)), 1_700_000_000_123);
});

Deno.test("ulid: every character of the random part is drawn evenly", () => {
  // 20,000 ids × 16 characters over 32 symbols: 10,000 expected each; a symbol never drawn, or
  // drawn far off its share (as a biased mapping of bytes to symbols would be), fails.
  const counts = new Map<string, number>();
  for (let i = 0; i < 20_000; i++) {
    for (const c of ulid().slice(10)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  assert.equal(counts.size, 32);
  for (const [c, n] of counts) assert.ok(n > 9_000 && n < 11_000, `${c}: ${n}`);
});
