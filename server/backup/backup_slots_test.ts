import assert from "node:assert/strict";
import { latestSlot, nextSlot, zonedInstant } from "./backup_slots.ts";
import type { BackupSchedule } from "../../shared/schemas/backup_schedule.ts";

const base: BackupSchedule = {
  enabled: true,
  frequency: "daily",
  weekday: 1,
  time: "03:00",
  timezone: "Asia/Shanghai",
  modules: ["text_management"],
  storage_config_id: "c",
  keep: 3,
};
const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

Deno.test("daily slots are at the wall-clock time of the zone", () => {
  // 03:00 in Shanghai (UTC+8) is 19:00 UTC the day before.
  const now = Date.parse("2026-03-10T12:00:00Z");
  assert.equal(iso(latestSlot(base, now)), "2026-03-09T19:00:00.000Z");
  assert.equal(iso(nextSlot(base, now)), "2026-03-10T19:00:00.000Z");
  // Exactly at the slot, the slot is due.
  assert.equal(
    iso(latestSlot(base, Date.parse("2026-03-10T19:00:00Z"))),
    "2026-03-10T19:00:00.000Z",
  );
});

Deno.test("weekly slots fall on their weekday; daylight saving time keeps the wall clock", () => {
  const weekly = {
    ...base,
    frequency: "weekly" as const,
    weekday: 0,
    time: "02:30",
    timezone: "Europe/Berlin",
  };
  // Sunday 2026-03-22 02:30 CET (UTC+1) = 01:30 UTC; the next Sunday is after the switch to
  // CEST (UTC+2) on 2026-03-29, where 02:30 does not exist: it comes out at 03:30 CEST.
  const now = Date.parse("2026-03-25T00:00:00Z");
  assert.equal(iso(latestSlot(weekly, now)), "2026-03-22T01:30:00.000Z");
  assert.equal(iso(nextSlot(weekly, now)), "2026-03-29T01:30:00.000Z");
  const april = { ...weekly, time: "03:00" };
  assert.equal(
    iso(nextSlot(april, Date.parse("2026-04-01T00:00:00Z"))),
    "2026-04-05T01:00:00.000Z",
  );
  assert.equal(
    zonedInstant(2026, 10, 25, 2, 30, "Europe/Berlin"),
    Date.parse("2026-10-25T00:30:00Z"),
  );
});

Deno.test("UTC schedules", () => {
  const utc = { ...base, timezone: "UTC", time: "23:59" };
  assert.equal(
    iso(latestSlot(utc, Date.parse("2026-01-01T23:58:59Z"))),
    "2025-12-31T23:59:00.000Z",
  );
  assert.equal(iso(nextSlot(utc, Date.parse("2026-01-01T23:58:59Z"))), "2026-01-01T23:59:00.000Z");
});
