/** The cells both share tables (texts and files) show: a point in time and the view count. */
import { useTranslation } from "react-i18next";
import { formatTimestamp } from "../../lib/format.ts";

/** A point in time in the reader's language, or `never` when there is none. */
export function DateTimeText({ iso, never }: { iso: string | null; never?: string }) {
  const { i18n } = useTranslation();
  if (!iso) return <>{never}</>;
  return <time dateTime={iso}>{formatTimestamp(iso, i18n.language, true)}</time>;
}

/** "3 / 10", or "3 / unlimited" when there is no view limit. */
export function viewsText(views: number, maxViews: number, unlimited: string): string {
  return `${views} / ${maxViews > 0 ? maxViews : unlimited}`;
}
