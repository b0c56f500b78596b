/** The result of creating a share: its link, copy, open, QR code and a summary of its options. */
import type { Ref } from "react";
import { useTranslation } from "react-i18next";
import type { PasteView } from "./pastes_api.ts";
import { ShareLink, shareUrl } from "./ShareLink.tsx";
import { formatTimestamp } from "../../lib/format.ts";

export function CreatedShare(
  { paste, onDismiss, ref }: { paste: PasteView; onDismiss: () => void; ref?: Ref<HTMLElement> },
) {
  const { t, i18n } = useTranslation();
  const url = shareUrl(paste);
  return (
    <section
      ref={ref}
      className="paste-created"
      tabIndex={-1}
      aria-labelledby="paste-created-title"
    >
      <div className="paste-created-head">
        <h2 id="paste-created-title">{t("home.result.title")}</h2>
        <button type="button" className="btn btn-ghost btn-small" onClick={onDismiss}>
          {t("home.result.dismiss")}
        </button>
      </div>
      <ShareLink url={url} />
      <ul className="paste-created-facts">
        {paste.has_password && <li>{t("home.result.protected")}</li>}
        <li>
          {paste.expires_at
            ? t("home.result.expires", {
              time: formatTimestamp(paste.expires_at, i18n.language, true),
            })
            : t("home.result.neverExpires")}
        </li>
        <li>
          {paste.max_views > 0
            ? t("home.result.maxViews", { n: paste.max_views })
            : t("home.result.unlimitedViews")}
        </li>
      </ul>
    </section>
  );
}
