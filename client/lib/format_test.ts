import assert from "node:assert/strict";
import { formatBytes, formatDateParts, formatDateTime, formatTimestamp } from "./format.ts";
import { formatSpeed } from "./upload/speed.ts";

Deno.test("sizes scale by 1024 with two figures below 10, one above", () => {
  assert.equal(formatBytes(320), "320 B");
  assert.equal(formatBytes(12.34 * 1024 * 1024), "12.3 MB");
  assert.equal(formatBytes(3 * 1024 ** 4), "3 TB");
  assert.equal(formatBytes(2 * 1024 ** 5), "2 PB");
  assert.equal(formatBytes(-1), "–");
  assert.equal(formatSpeed(2.5 * 1024 * 1024), "2.5 MB/s");
});

Deno.test("dates: the fallback for a missing or unparsable one; timestamps say UTC until local", () => {
  const iso = "2025-01-02T13:45:00Z";
  assert.equal(formatDateTime(null, "en-US"), "–");
  assert.equal(formatDateTime("soon", "en-US", "never"), "never");
  assert.equal(
    formatDateTime(iso, "en-US"),
    new Intl.DateTimeFormat("en-US", {
      dateStyle: "medium",
      timeStyle: "short",
    }).format(new Date(iso)),
  );
  assert.equal(formatDateParts("", "en-US"), null);
  assert.equal(formatTimestamp(iso, "en-US", false), "01/02/2025, 13:45 UTC");
  assert.equal(formatTimestamp("soon", "en-US", true), "soon");
});
