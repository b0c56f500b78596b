/**
 * The announcement banner (docs/PRODUCT.md §1, §2.3) above the navigation. "Don't show again" stores a hash
 * of the content in localStorage, so a changed announcement shows again; the close button
 * hides it until the next page load. Whether it was dismissed is known only in the browser: a
 * page the browser renders itself reads it in its first render; a server-rendered page shows
 * the banner after mounting (never during server rendering or hydration).
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSiteConfig } from "../app/site_config.ts";
import { useSiteMarkdownHtml } from "./Footer.tsx";
import { LineIcon } from "./LineIcon.tsx";

export const ANNOUNCEMENT_DISMISSED_KEY = "cubby.announcementDismissed";

/** A short, stable fingerprint of the announcement (FNV-1a over the UTF-16 text, plus length). */
export function announcementHash(content: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < content.length; i++) {
    h ^= content.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${(h >>> 0).toString(16).padStart(8, "0")}-${content.length}`;
}

function readDismissed(): string | null {
  try {
    return globalThis.localStorage?.getItem(ANNOUNCEMENT_DISMISSED_KEY) ?? null;
  } catch {
    return null;
  }
}

/** True in a document the server rendered (its root is hydrated), and on the server. */
function isServerRendered(): boolean {
  const root = globalThis.document?.getElementById("root");
  return !root || root.dataset.ssr === "1";
}

function CloseIcon() {
  return (
    <LineIcon size={16}>
      <path d="M6 6l12 12M18 6L6 18" />
    </LineIcon>
  );
}

/** The banner with the configured announcement, unless it is off or was dismissed. */
export function AnnouncementBanner() {
  const { t } = useTranslation();
  const site = useSiteConfig();
  const content = site.announcementEnabled ? site.announcementContent : "";
  const hash = content.trim() ? announcementHash(content) : "";
  /**
   * What was dismissed, read from localStorage: at once on a page the browser renders itself, so
   * the banner is there in its first paint (appearing later would push the whole page down);
   * after mounting on a server-rendered one, whose first render must match the server's.
   */
  const [dismissed, setDismissed] = useState<string | null | undefined>(() =>
    isServerRendered() ? undefined : readDismissed()
  );
  const [closed, setClosed] = useState<string | null>(null);
  const html = useSiteMarkdownHtml(hash ? content : null, "announcement");

  useEffect(() => setDismissed(readDismissed()), []);

  if (!hash || dismissed === undefined || dismissed === hash || closed === hash) return null;

  const dontShowAgain = () => {
    try {
      globalThis.localStorage?.setItem(ANNOUNCEMENT_DISMISSED_KEY, hash);
    } catch { /* storage unavailable: hidden for this page load only */ }
    setDismissed(hash);
  };

  return (
    <section className="announcement" aria-label={t("settings.announcement.label")}>
      <div className="announcement-inner">
        <div
          className="markdown-body announcement-body"
          dangerouslySetInnerHTML={{ __html: html ?? "" }}
        />
        <div className="announcement-actions">
          <button type="button" className="btn btn-small" onClick={dontShowAgain}>
            {t("settings.announcement.dontShowAgain")}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-icon btn-small"
            aria-label={t("settings.announcement.close")}
            onClick={() => setClosed(hash)}
          >
            <CloseIcon />
          </button>
        </div>
      </div>
    </section>
  );
}
