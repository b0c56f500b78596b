/** Sizes, speeds and durations for people; shared by the upload and storage screens. */
import type { TFunction } from "i18next";
import { scaleBytes } from "../../lib/bytes.ts";

const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"];

/** A byte count such as "320 B", "1.5 KB", "12.34 MB" (binary multiples). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "–";
  const { value, unit } = scaleBytes(bytes, UNITS.length);
  const digits = unit === 0 ? 0 : value < 10 ? 2 : 1;
  return `${Number(value.toFixed(digits))} ${UNITS[unit]}`;
}

/** A transfer speed such as "2.4 MB/s". */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** A duration in whole seconds, e.g. "45 s", "3 min 5 s", "1 h 2 min", in the UI language. */
export function formatDuration(t: TFunction, seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t("upload.time.seconds", { s });
  if (s < 3600) return t("upload.time.minutes", { m: Math.floor(s / 60), s: s % 60 });
  return t("upload.time.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
}

/** A date and time in the UI language, or `fallback` when missing or invalid. */
export function formatDateTime(iso: string | null | undefined, lang: string, fallback = "–") {
  if (!iso) return fallback;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return fallback;
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(d);
}
