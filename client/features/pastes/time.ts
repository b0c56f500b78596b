/**
 * Times shown on the paste screens. A server-rendered page must hydrate with the markup the
 * server made, but the server knows neither the visitor's time zone nor their clock: the first
 * render formats in UTC, and the page switches to local time once it runs in the browser.
 */
import { useSyncExternalStore } from "react";

const noopSubscribe = () => () => {};

/** False on the server and while hydrating; true once the component runs in the browser. */
export function useIsClient(): boolean {
  return useSyncExternalStore(noopSubscribe, () => true, () => false);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One cached formatter per language and zone: building one costs about 20 times a format. */
function dateTimeFormat(lang: string, local: boolean): Intl.DateTimeFormat {
  const id = `${lang}|${local}`;
  let format = formatters.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hour12: false,
      timeZone: local ? undefined : "UTC",
    });
    formatters.set(id, format);
  }
  return format;
}

/** A date and time in the visitor's zone, or in UTC (marked so) before hydration. */
export function formatDateTime(iso: string, lang: string, local: boolean): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const text = dateTimeFormat(lang, local).format(d);
  return local ? text : `${text} UTC`;
}

/** True when an ISO expiry lies in the past. */
export function isPast(iso: string | null, now = Date.now()): boolean {
  return iso !== null && new Date(iso).getTime() <= now;
}
