/** Chooses and shows the preview of an opened share (docs/PRODUCT.md §2.3). */
import { useTranslation } from "react-i18next";
import { previewTypeOf } from "../../../../shared/preview_types.ts";
import { usePreviewLists } from "../../../app/site_config.ts";
import type { PublicFileView } from "../files_api.ts";
import { HtmlPreview, MarkdownPreview, TextPreview } from "./TextPreviews.tsx";
import { MediaPreview, PdfPreview } from "./MediaPreviews.tsx";
import { OfficePreview } from "./OfficePreview.tsx";
import type { PreviewActions } from "./PreviewParts.tsx";

export function FilePreview(
  { file, password, ...actions }: { file: PublicFileView; password?: string } & PreviewActions,
) {
  const kind = previewTypeOf(file.filename, file.mimetype, usePreviewLists());
  switch (kind) {
    case "text":
      return <TextPreview file={file} {...actions} />;
    case "markdown":
      return <MarkdownPreview file={file} {...actions} />;
    case "html":
      return <HtmlPreview file={file} {...actions} />;
    case "image":
    case "video":
    case "audio":
      return <MediaPreview file={file} kind={kind} {...actions} />;
    case "pdf":
      return <PdfPreview file={file} {...actions} />;
    case "office":
      return <OfficePreview file={file} password={password} {...actions} />;
    default:
      return <NoPreview downloadHref={actions.downloadHref} />;
  }
}

/** The generic fallback: no preview for this type, download instead. */
function NoPreview({ downloadHref }: { downloadHref: string }) {
  const { t } = useTranslation();
  return (
    <div className="file-preview-none">
      <p>{t("preview.none")}</p>
      <a className="btn btn-primary" href={downloadHref} download>{t("file.download")}</a>
    </div>
  );
}
