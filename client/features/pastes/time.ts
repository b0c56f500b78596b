/**
 * Time on the share screens. A server-rendered page must hydrate with the markup the server
 * made, but the server knows neither the visitor's time zone nor their clock: the first render
 * formats in UTC (formatTimestamp in lib/format.ts), and the page switches to local time once it
 * runs in the browser (useIsClient).
 */
import { useSyncExternalStore } from "react";

const noopSubscribe = () => () => {};

/** False on the server and while hydrating; true once the component runs in the browser. */
export function useIsClient(): boolean {
  return useSyncExternalStore(noopSubscribe, () => true, () => false);
}

/** True when an ISO expiry lies in the past. */
export function isPast(iso: string | null, now = Date.now()): boolean {
  return iso !== null && new Date(iso).getTime() <= now;
}
