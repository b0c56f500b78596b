/**
 * Image, video, audio and PDF previews load straight from the signed preview link (Range
 * requests let media seek without downloading everything). Elements do not report HTTP
 * statuses, so after a failure one byte of the link is fetched to tell an expired link from
 * a format the browser cannot show.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiHref, type PublicFileView } from "../files_api.ts";
import { probePreviewStatus } from "./fetch_preview.ts";
import { type PreviewActions, PreviewLoading, PreviewProblem } from "./PreviewParts.tsx";
import { NewTabLink } from "../../../components/NewTabLink.tsx";

type Props = { file: PublicFileView; kind: "image" | "video" | "audio" } & PreviewActions;

export function MediaPreview({ file, kind, ...actions }: Props) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<"probing" | number | null>(null);
  const src = apiHref(file.preview_url);
  const onError = () => {
    if (failure !== null) return;
    setFailure("probing");
    probePreviewStatus(file.preview_url).then(setFailure);
  };
  if (failure === "probing") return <PreviewLoading />;
  if (failure !== null) return <PreviewProblem status={failure} {...actions} />;
  const label = t("preview.contentOf", { name: file.filename });
  if (kind === "image") {
    return (
      <div className="file-preview-media">
        <NewTabLink href={src} title={t("preview.openFull")}>
          <img className="file-image" src={src} alt={file.filename} onError={onError} />
        </NewTabLink>
      </div>
    );
  }
  if (kind === "video") {
    return (
      <div className="file-preview-media">
        <video
          className="file-video"
          src={src}
          controls
          preload="metadata"
          playsInline
          aria-label={label}
          onError={onError}
        >
          {t("preview.noMediaSupport")}
        </video>
      </div>
    );
  }
  return (
    <div className="file-preview-media file-preview-audio">
      <audio src={src} controls preload="metadata" aria-label={label} onError={onError}>
        {t("preview.noMediaSupport")}
      </audio>
    </div>
  );
}

/**
 * A PDF in the browser's own viewer. The app's CSP forbids <object>/<embed>, and an iframe on
 * the preview link works in Chromium even though the link is served with `CSP: sandbox`; where
 * a browser refuses, the open-in-new-tab and download links remain.
 */
export function PdfPreview({ file, downloadHref }: { file: PublicFileView } & PreviewActions) {
  const { t } = useTranslation();
  const src = apiHref(file.preview_url);
  return (
    <div className="file-preview-pdf">
      <iframe
        className="file-frame file-frame-pdf"
        src={src}
        title={t("preview.contentOf", { name: file.filename })}
      />
      <p className="file-preview-note">
        {t("preview.pdfFallback")} <NewTabLink href={src}>{t("preview.openNewTab")}</NewTabLink>
        {" · "}
        <a href={downloadHref} download>{t("file.download")}</a>
      </p>
    </div>
  );
}
