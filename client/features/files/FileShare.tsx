/** The share page's link with copy, and a QR code of it (browser only: needs the origin). */
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/CopyButton.tsx";
import { QrCode } from "../../components/QrCode.tsx";
import { paths } from "../../../shared/app_paths.ts";
import { CopyText } from "../../components/CopyText.tsx";

/** `url` overrides the page's link (an end-to-end encrypted share's carries its key). */
export function FileShare({ slug, url: given }: { slug: string; url?: string }) {
  const { t } = useTranslation();
  const url = given || new URL(paths.file(slug), globalThis.location.origin).href;
  return (
    <section className="file-card file-share" aria-labelledby="file-share-title">
      <h2 id="file-share-title">{t("file.share.title")}</h2>
      <label htmlFor="file-share-link" className="field-label">{t("file.share.link")}</label>
      {/* The side column is narrow: the whole link wraps in its box, Copy goes below it. */}
      <div className="file-share-link">
        <CopyText id="file-share-link" className="input-mono" value={url} lines={2} />
        <CopyButton text={url} label={t("file.share.copy")} className="btn" />
      </div>
      <figure className="file-qr">
        <QrCode value={url} size={160} alt={t("file.share.qrAlt", { url })} />
        <figcaption className="muted">{t("file.share.qr")}</figcaption>
      </figure>
    </section>
  );
}
