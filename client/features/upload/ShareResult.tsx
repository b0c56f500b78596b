/** A finished upload's share link: copy, open in a new tab, and a QR code on demand. */
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/CopyButton.tsx";
import { QrCode } from "../../components/QrCode.tsx";
import type { FileView } from "./upload_api.ts";
import { CopyText } from "../../components/CopyText.tsx";
import { NewTabLink } from "../../components/NewTabLink.tsx";

/** The absolute share URL of a file (the server sends one; the slug is the fallback). */
export function fileShareUrl(file: Pick<FileView, "url" | "slug">): string {
  return new URL(file.url || `/file/${encodeURIComponent(file.slug)}`, globalThis.location.origin)
    .href;
}

export function ShareResult({ file }: { file: FileView }) {
  const { t } = useTranslation();
  const id = useId();
  const [qr, setQr] = useState(false);
  const url = fileShareUrl(file);
  return (
    <div className="upload-result">
      <label htmlFor={`${id}-url`} className="upload-result-label">
        {t("upload.result.link")}
      </label>
      <div className="upload-result-row">
        <CopyText id={`${id}-url`} className="upload-result-url" value={url} />
        <div className="upload-result-buttons">
          <CopyButton text={url} label={t("upload.result.copy")} className="btn btn-small" />
          <NewTabLink
            className="btn btn-small"
            href={url}
            aria-label={t("upload.result.openLabel", { name: file.filename })}
          >
            {t("upload.result.open")}
          </NewTabLink>
          <button
            type="button"
            className="btn btn-small"
            aria-expanded={qr}
            aria-controls={`${id}-qr`}
            onClick={() => setQr((v) => !v)}
          >
            {qr ? t("upload.result.qrHide") : t("upload.result.qrShow")}
          </button>
        </div>
      </div>
      <figure id={`${id}-qr`} className="upload-result-qr" hidden={!qr}>
        {qr && <QrCode value={url} size={160} />}
        <figcaption className="muted">{t("upload.result.qrCaption")}</figcaption>
      </figure>
    </div>
  );
}
