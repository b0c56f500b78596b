import assert from "node:assert/strict";
import { setRecent } from "./recent_map.ts";

Deno.test("setRecent keeps the most recently set entries, dropping the least recent", () => {
  const map = new Map<string, number>();
  setRecent(map, "a", 1, 2);
  setRecent(map, "b", 2, 2);
  // Setting "a" again makes it the most recent: "b" is now the oldest and goes first.
  setRecent(map, "a", 3, 2);
  setRecent(map, "c", 4, 2);
  assert.deepEqual([...map], [["a", 3], ["c", 4]]);
});
