/**
 * What the share screens (the paste and file pages, their admin tables) show of a share: the
 * entries of its facts list, its times, its view count. A server-rendered page must hydrate with
 * the markup the server made, but the server knows neither the visitor's time zone nor their
 * clock: the first render shows times in UTC (formatTimestamp), and the page switches to local
 * time once it runs in the browser (useIsClient).
 */
import { type ReactNode, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { formatTimestamp } from "../lib/format.ts";

const noopSubscribe = () => () => {};

/** False on the server and while hydrating; true once the component runs in the browser. */
export function useIsClient(): boolean {
  return useSyncExternalStore(noopSubscribe, () => true, () => false);
}

/** True when an ISO expiry lies in the past. */
export function isPast(iso: string | null, now = Date.now()): boolean {
  return iso !== null && new Date(iso).getTime() <= now;
}

/** One entry of a facts list (`dl`): a term and its value. */
export function Fact(
  { term, className, children }: { term: ReactNode; className?: string; children: ReactNode },
) {
  return (
    <div className={className}>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * A point in time in the reader's language and zone (in UTC while `local` is false: a
 * server-rendered page until it hydrates), or `never` when there is none.
 */
export function ShareTime(
  { iso, local = true, never }: { iso: string | null; local?: boolean; never?: string },
) {
  const { i18n } = useTranslation();
  if (!iso) return <>{never}</>;
  return <time dateTime={iso}>{formatTimestamp(iso, i18n.language, local)}</time>;
}

/** "3 / 10", or "3 / unlimited" when there is no view limit. */
export function viewsText(views: number, maxViews: number, unlimited: string): string {
  return `${views} / ${maxViews > 0 ? maxViews : unlimited}`;
}
