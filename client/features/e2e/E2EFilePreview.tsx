/**
 * The preview of an end-to-end encrypted file: images, video, audio, PDF, text, code, Markdown
 * and HTML up to PREVIEW_MAX are fetched and decrypted in this browser, then shown by the
 * app's own previews from a blob: URL (which never leaves the page). Office previews need an
 * online viewer to read the plaintext, so they are off; a damaged file shows nothing of it.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { previewTypeOf } from "../../../shared/preview_types.ts";
import { usePreviewLists } from "../../app/site_config.ts";
import { errorText } from "../../api/errors.ts";
import { FilePreview } from "../files/previews/FilePreview.tsx";
import { PreviewLoading } from "../files/previews/PreviewParts.tsx";
import { formatBytes } from "../../lib/format.ts";
import { decryptToBlob, type OpenedFile } from "./e2e_open.ts";
import { PREVIEW_MAX } from "./e2e_limits.ts";
import { E2EProblem } from "./E2EProblem.tsx";

const DECRYPTED_KINDS = new Set(["text", "markdown", "html", "image", "video", "audio", "pdf"]);

type Loaded =
  | { kind: "loading" }
  | { kind: "ready"; url: string }
  | { kind: "failed"; problem?: "damaged"; message?: string };

export function E2EFilePreview({ opened }: { opened: OpenedFile }) {
  const { t } = useTranslation();
  const kind = previewTypeOf(opened.meta.name, opened.meta.type, usePreviewLists());
  const wanted = DECRYPTED_KINDS.has(kind) && opened.file.size <= PREVIEW_MAX;
  const [loaded, setLoaded] = useState<Loaded>({ kind: "loading" });

  useEffect(() => {
    if (!wanted) return;
    const abort = new AbortController();
    let url: string | null = null;
    decryptToBlob(opened, PREVIEW_MAX, abort.signal).then((blob) => {
      url = URL.createObjectURL(blob);
      setLoaded({ kind: "ready", url });
    }, (err) => {
      if (abort.signal.aborted) return;
      const damaged = (err as { problem?: string }).problem === "damaged";
      setLoaded(
        damaged ? { kind: "failed", problem: "damaged" } : {
          kind: "failed",
          message: errorText(t, err),
        },
      );
    });
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [opened, wanted, t]);

  if (kind === "office") return <p className="file-preview-note">{t("e2e.file.officeOff")}</p>;
  if (!DECRYPTED_KINDS.has(kind)) return <p className="file-preview-note">{t("preview.none")}</p>;
  if (!wanted) {
    return (
      <p className="file-preview-note">
        {t("e2e.file.previewTooLarge", { max: formatBytes(PREVIEW_MAX) })}
      </p>
    );
  }
  if (loaded.kind === "loading") return <PreviewLoading />;
  if (loaded.kind === "failed") {
    return <E2EProblem problem={loaded.problem} message={loaded.message} />;
  }
  const file = {
    ...opened.file,
    filename: opened.meta.name,
    mimetype: opened.meta.type,
    size: opened.size ?? opened.file.size,
    preview_url: loaded.url,
    download_url: loaded.url,
  };
  // The decrypted copy stays in the page: refreshing links has nothing to refresh.
  return <FilePreview file={file} onRefresh={() => {}} downloadHref={loaded.url} />;
}
