/**
 * When a scheduled backup is due: the "slots" of a daily or weekly schedule, at a wall-clock
 * time in the admin's time zone (a 03:00 backup stays at 03:00 across daylight saving time).
 * Pure, so every case is a table in the tests.
 */
import type { BackupSchedule } from "../../shared/schemas/backup_schedule.ts";

const DAY = 24 * 60 * 60_000;

/** The wall-clock parts of instant `ms` in `zone`. */
function partsIn(ms: number, zone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    weekday: "short",
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "0";
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(get("weekday"));
  return {
    year: Number(get("year")),
    month: Number(get("month")),
    day: Number(get("day")),
    hour: Number(get("hour")),
    minute: Number(get("minute")),
    second: Number(get("second")),
    weekday,
  };
}

/** How far `zone` is ahead of UTC at instant `ms`, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const p = partsIn(ms, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant of wall-clock time `hh:mm` on the calendar day `y-m-d` in `zone`. A time that a
 * clock change skips comes out an hour later; a repeated one is its first occurrence.
 */
export function zonedInstant(
  y: number,
  m: number,
  d: number,
  hh: number,
  mm: number,
  zone: string,
): number {
  const guess = Date.UTC(y, m - 1, d, hh, mm);
  // The offsets before and after any clock change near that day.
  const before = offsetAt(guess - DAY / 2, zone);
  const after = offsetAt(guess + DAY / 2, zone);
  const valid = [guess - before, guess - after].sort((a, b) => a - b).filter((t) => {
    const p = partsIn(t, zone);
    return p.day === d && p.hour === hh && p.minute === mm;
  });
  // Skipped by the clock: the same distance after the change, i.e. an hour later.
  return valid.length ? valid[0] : guess - before;
}

/** The scheduled instants on the calendar day of `ms` (in the zone) and the days around it. */
function candidates(s: BackupSchedule, ms: number): number[] {
  const [hh, mm] = s.time.split(":").map(Number);
  const out: number[] = [];
  for (let shift = -8; shift <= 8; shift++) {
    const p = partsIn(ms + shift * DAY, s.timezone);
    if (s.frequency === "weekly" && p.weekday !== s.weekday) continue;
    out.push(zonedInstant(p.year, p.month, p.day, hh, mm, s.timezone));
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/** The latest scheduled instant at or before `nowMs`, or null. */
export function latestSlot(s: BackupSchedule, nowMs: number): number | null {
  const past = candidates(s, nowMs).filter((t) => t <= nowMs);
  return past.length ? past[past.length - 1] : null;
}

/** The first scheduled instant after `nowMs`. */
export function nextSlot(s: BackupSchedule, nowMs: number): number {
  return candidates(s, nowMs).find((t) => t > nowMs)!;
}
