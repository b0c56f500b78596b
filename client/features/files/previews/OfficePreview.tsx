/**
 * Office documents through Microsoft's or Google's online viewer. The server hands out a
 * signed download link for the viewer to fetch (admitted by the view token of the share's
 * links, so it does not count another view), so the viewer needs internet access and must
 * be able to reach this server; the page says so and keeps the download at hand.
 */
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { getOfficeLinks, type OfficeLinks, type PublicFileView } from "../files_api.ts";
import { type PreviewActions, PreviewLoading, PreviewProblem } from "./PreviewParts.tsx";
import { CheckLabel } from "../../../components/FormField.tsx";
import { NewTabLink } from "../../../components/NewTabLink.tsx";

type Viewer = "microsoft" | "google";

export function OfficePreview(
  { file, password, ...actions }: { file: PublicFileView; password?: string } & PreviewActions,
) {
  const { t } = useTranslation();
  const name = useId();
  const [viewer, setViewer] = useState<Viewer>("microsoft");
  const [links, setLinks] = useState<OfficeLinks | null>(null);
  const [failure, setFailure] = useState<number | null>(null);

  useEffect(() => {
    let alive = true;
    setLinks(null);
    setFailure(null);
    getOfficeLinks(file, password).then(
      (l) => alive && setLinks(l),
      (err) => alive && setFailure(err instanceof ApiError ? err.status : 0),
    );
    return () => {
      alive = false;
    };
    // The links depend on the share and its token only, not on the object's identity.
  }, [file.slug, file.download_url, password]);

  if (failure !== null) return <PreviewProblem status={failure} {...actions} />;
  if (!links) return <PreviewLoading />;
  const src = links[viewer];
  return (
    <div className="file-preview-office">
      <div className="file-preview-bar">
        <fieldset className="file-viewer-choice">
          <legend>{t("preview.office.viewer")}</legend>
          {(["microsoft", "google"] as const).map((v) => (
            <CheckLabel
              key={v}
              type="radio"
              name={name}
              value={v}
              label={t(`preview.office.${v}`)}
              checked={viewer === v}
              onChange={() => setViewer(v)}
            />
          ))}
        </fieldset>
        <NewTabLink className="btn btn-small" href={src}>
          {t("preview.openNewTab")}
        </NewTabLink>
      </div>
      <p className="file-preview-note" role="note">{t("preview.office.note")}</p>
      <iframe
        key={viewer}
        className="file-frame file-frame-office"
        src={src}
        title={t("preview.office.title", {
          name: file.filename,
          viewer: t(`preview.office.${viewer}`),
        })}
        referrerPolicy="no-referrer"
      />
    </div>
  );
}
