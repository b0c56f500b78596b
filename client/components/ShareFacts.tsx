/**
 * What the share screens (the paste and file pages, their admin tables) show of a share: the
 * entries of its facts list (and the ones every share has), its times, its view count. A server-rendered page must hydrate with
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

/** What ShareLifeFacts reads of a share. */
export type ShareLife = {
  created_at: string;
  expires_at: string | null;
  views: number;
  max_views: number;
  has_password: boolean;
  own_view?: boolean;
};

/**
 * The facts every share has, as entries of a facts list: when it was made, when it expires, its
 * views (noting the visitor's own) and whether it has a password. `texts` is the i18n prefix of
 * the screen's terms; `created` names its term for the creation time.
 */
export function ShareLifeFacts(
  { share, local, texts, created, passwordBadge }: {
    share: ShareLife;
    local: boolean;
    texts: "file.info" | "paste.meta";
    created: "uploaded" | "created";
    /** The class of the password badge. */
    passwordBadge: string;
  },
) {
  const { t } = useTranslation();
  return (
    <>
      <Fact term={t(`${texts}.${created}`)}>
        <ShareTime iso={share.created_at} local={local} />
      </Fact>
      <Fact term={t(`${texts}.expires`)}>
        <ShareTime iso={share.expires_at} local={local} never={t(`${texts}.never`)} />
      </Fact>
      <Fact term={t(`${texts}.views`)}>
        {share.max_views > 0
          ? t(`${texts}.viewsOf`, { views: share.views, max: share.max_views })
          : t(`${texts}.viewsUnlimited`, { views: share.views })}
        {share.own_view && <span className="fact-note">{t(`${texts}.ownView`)}</span>}
      </Fact>
      {share.has_password && (
        <Fact term={t(`${texts}.access`)}>
          <span className={passwordBadge}>{t(`${texts}.passwordProtected`)}</span>
        </Fact>
      )}
    </>
  );
}
