/** A share's absolute link with copy, open and a QR code; used after creating and on the page. */
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/CopyButton.tsx";
import { QrCode } from "../../components/QrCode.tsx";
import { paths } from "../../../shared/app_paths.ts";
import { CopyText } from "../../components/CopyText.tsx";

/** The absolute URL of a share page (browser only: needs the page's origin). */
export function shareUrl(p: { url?: string | null; slug: string }): string {
  return new URL(p.url || paths.paste(p.slug), globalThis.location.origin).href;
}

export function ShareLink(
  { url, showOpen = true, qrLabel }: { url: string; showOpen?: boolean; qrLabel?: string },
) {
  const { t } = useTranslation();
  const inputId = useId();
  return (
    <div className="paste-share-link">
      <div className="paste-share-row">
        <label htmlFor={inputId} className="paste-share-label">{t("paste.share.link")}</label>
        <CopyText id={inputId} className="paste-share-input" value={url} />
        <div className="paste-share-buttons">
          <CopyButton text={url} label={t("paste.share.copyLink")} className="btn btn-primary" />
          {showOpen && <a className="btn" href={url}>{t("paste.share.open")}</a>}
        </div>
      </div>
      <figure className="paste-qr">
        <QrCode value={url} />
        <figcaption>{qrLabel ?? t("paste.share.qr")}</figcaption>
      </figure>
    </div>
  );
}
