/**
 * Sizes and dates for people: the formatters of every screen (a transfer's speed and time left
 * are in lib/upload/speed.ts). Pure (the language comes in), so the server's render and the
 * page's hydration format alike.
 */
/** A byte count such as "320 B", "1.5 KB", "12.3 MB", worded as the server's messages word it. */
export { formatByteSize as formatBytes } from "../../shared/byte_size.ts";

const STAMP: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
};
const STYLES = {
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  date: { dateStyle: "medium" },
  time: { timeStyle: "short" },
  stampLocal: STAMP,
  stampUtc: { ...STAMP, timeZone: "UTC" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One cached formatter per language and style: building one costs about 20 times a format. */
function dateFormat(lang: string, style: keyof typeof STYLES): Intl.DateTimeFormat {
  const id = `${lang}|${style}`;
  let format = formatters.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, STYLES[style]);
    formatters.set(id, format);
  }
  return format;
}

/** The date of an ISO time, or null when missing or unparsable. */
function dateOf(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A date and time in the UI language ("Jan 2, 2025, 1:45 PM"), or `fallback` when invalid. */
export function formatDateTime(iso: string | null | undefined, lang: string, fallback = "–") {
  const d = dateOf(iso);
  return d ? dateFormat(lang, "dateTime").format(d) : fallback;
}

/**
 * A date and its time of day as two texts in the UI language (a table cell may break the line
 * between them, never inside either), or null for null or an unparsable value.
 */
export function formatDateParts(
  iso: string | null | undefined,
  lang: string,
): [date: string, time: string] | null {
  const d = dateOf(iso);
  return d ? [dateFormat(lang, "date").format(d), dateFormat(lang, "time").format(d)] : null;
}

/**
 * A date and time in figures ("2025/01/02 13:45"), in the visitor's zone when `local`, else in
 * UTC and marked so. A server-rendered page must hydrate with the markup the server made, but the
 * server knows neither the visitor's zone nor their clock: it and the first render format in UTC,
 * and the page switches to local time once it runs in the browser (useIsClient). An unparsable
 * value is shown as it is.
 */
export function formatTimestamp(iso: string, lang: string, local: boolean): string {
  const d = dateOf(iso);
  if (!d) return iso;
  const text = dateFormat(lang, local ? "stampLocal" : "stampUtc").format(d);
  return local ? text : `${text} UTC`;
}
