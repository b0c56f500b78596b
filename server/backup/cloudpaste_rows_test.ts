import assert from "node:assert/strict";
import { bool, ImportLog, int, isoOrNull, mapCreator, str, timeId } from "./cloudpaste_rows.ts";
import { decodeTime } from "ulid";

Deno.test("CloudPaste columns: strings, booleans and counts from loose SQLite values", () => {
  assert.deepEqual([str("  a "), str(5), str(NaN), str(null), str({})], ["a", "5", "", "", ""]);
  assert.deepEqual([1, "1", "true", true, 0, "0", "yes", null].map(bool), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
  assert.deepEqual([int(3.9), int("12"), int(-1), int("x"), int(Infinity), int(1e300)], [
    3,
    12,
    0,
    0,
    0,
    Number.MAX_SAFE_INTEGER,
  ]);
});

Deno.test("CloudPaste times: SQLite UTC text, seconds or milliseconds, else null", () => {
  assert.equal(isoOrNull("2024-01-02 03:04:05"), "2024-01-02T03:04:05.000Z");
  assert.equal(isoOrNull("2024-01-02T03:04:05+08:00"), "2024-01-01T19:04:05.000Z");
  assert.equal(isoOrNull(1_700_000_000), "2023-11-14T22:13:20.000Z");
  assert.equal(isoOrNull(1_700_000_000_000), "2023-11-14T22:13:20.000Z");
  for (const bad of [null, "", "soon", -5, 9e15, Infinity]) assert.equal(isoOrNull(bad), null);
});

Deno.test("imported ids keep their rows' time order; creators follow their key's new id", () => {
  const a = timeId("2024-01-01T00:00:00.000Z");
  const b = timeId("2024-06-01T00:00:00.000Z");
  assert.equal(decodeTime(a), Date.parse("2024-01-01T00:00:00.000Z"));
  assert.ok(a < b);
  assert.ok(Math.abs(decodeTime(timeId("garbage")) - Date.now()) < 60_000);
  const ids = new Map([["old1", "NEW1"]]);
  assert.equal(mapCreator("apikey:old1", ids), "apikey:NEW1");
  assert.equal(mapCreator("apikey:gone", ids), "apikey:gone");
  assert.equal(mapCreator("admin-xyz", ids), "admin");
  assert.equal(mapCreator(`apikey:${"z".repeat(200)}`, ids).length, 100);
});

Deno.test("the import log keeps skips and only notes that count", () => {
  const log = new ImportLog();
  log.skip("text_management", "p1", "slug_taken");
  log.note("file_management", "password_reset", 0);
  log.note("file_management", "password_reset", 2);
  assert.deepEqual(log.skipped, [{ module: "text_management", id: "p1", reason: "slug_taken" }]);
  assert.deepEqual(log.notes, [{ module: "file_management", code: "password_reset", count: 2 }]);
});
