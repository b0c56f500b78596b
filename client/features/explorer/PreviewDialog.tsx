/**
 * The preview of a mount file (`?preview=<name>`), reusing the file-view previews: they load
 * from a signed `fs/file-link` URL, which needs no Authorization header. Office documents go
 * to Microsoft's online viewer with that link. Text files can be edited (with the upload bit)
 * and saved through `fs/update`. Arrow keys or the buttons move between the folder's files.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../components/Modal.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { errorText } from "../../api/errors.ts";
import { FilePreview } from "../files/previews/FilePreview.tsx";
import type { PublicFileView } from "../files/files_api.ts";
import { previewTypeOf } from "../../../shared/preview_types.ts";
import { usePreviewLists } from "../../app/site_config.ts";
import { MAX_PASTE_BYTES } from "../../../shared/constants.ts";
import { fileLink, type FsEntry } from "./explorer_api.ts";
import { formatBytes, formatDateTime } from "../../lib/format.ts";
import { RetryAlert } from "../../components/RetryAlert.tsx";

const TextEditor = lazy(() => import("./TextEditor.tsx"));

type Links = { view: string; download: string };

/** What the shared previews need, made from a mount entry and its links. */
function asFileView(entry: FsEntry, links: Links): PublicFileView {
  return {
    slug: "",
    id: entry.path,
    filename: entry.name,
    size: entry.size,
    mimetype: entry.mimetype ?? "application/octet-stream",
    remark: "",
    has_password: false,
    expires_at: null,
    max_views: 0,
    views: 0,
    created_at: entry.modified ?? "",
    preview_url: links.view,
    download_url: links.download,
    can_manage: false,
  };
}

function OfficeViewer({ file }: { file: PublicFileView }) {
  const { t } = useTranslation();
  const src = `https://view.officeapps.live.com/op/embed.aspx?src=${
    encodeURIComponent(file.preview_url)
  }`;
  return (
    <div className="file-preview-office">
      <p className="file-preview-note" role="note">{t("preview.office.note")}</p>
      <iframe
        className="file-frame file-frame-office"
        src={src}
        title={t("preview.contentOf", { name: file.filename })}
        referrerPolicy="no-referrer"
      />
    </div>
  );
}

export function PreviewDialog(
  { entry, prev, next, canEdit, onNavigate, onClose, onSaved }: {
    entry: FsEntry;
    prev: FsEntry | null;
    next: FsEntry | null;
    canEdit: boolean;
    onNavigate: (e: FsEntry) => void;
    onClose: () => void;
    onSaved: (e: FsEntry) => void;
  },
) {
  const { t, i18n } = useTranslation();
  const lists = usePreviewLists();
  const [links, setLinks] = useState<Links | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const kind = previewTypeOf(entry.name, entry.mimetype ?? "", lists);
  const editable = canEdit && entry.size <= MAX_PASTE_BYTES &&
    (kind === "text" || kind === "markdown" || kind === "html");

  useEffect(() => {
    let alive = true;
    setLinks(null);
    setError(null);
    Promise.all([fileLink(entry.path), fileLink(entry.path, { download: true })]).then(
      ([v, d]) => alive && setLinks({ view: v.url, download: d.url }),
      (err) => alive && setError(errorText(t, err)),
    );
    return () => {
      alive = false;
    };
  }, [entry.path, entry.modified, attempt, t]);

  const refresh = useCallback(() => setAttempt((a) => a + 1), []);

  useEffect(() => {
    if (editing) return;
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable=true]")) return;
      if (e.key === "ArrowLeft" && prev) onNavigate(prev);
      if (e.key === "ArrowRight" && next) onNavigate(next);
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, [prev, next, onNavigate, editing]);

  const file = links ? asFileView(entry, links) : null;
  return (
    <Modal
      open
      onClose={onClose}
      size="large"
      className="explorer-preview"
      dismissible={!editing}
      title={entry.name}
      footer={editing ? undefined : (
        <>
          {([["previous", prev], ["next", next]] as const).map(([key, target]) => (
            <button
              key={key}
              type="button"
              className="btn"
              disabled={!target}
              onClick={() => target && onNavigate(target)}
            >
              {t(`explorer.preview.${key}`)}
            </button>
          ))}
          <span className="explorer-toolbar-spacer" />
          {editable && (
            <button type="button" className="btn" onClick={() => setEditing(true)}>
              {t("common.edit")}
            </button>
          )}
          {links && (
            <a className="btn btn-primary" href={links.download} download>{t("file.download")}</a>
          )}
        </>
      )}
    >
      <p className="muted explorer-preview-meta">
        {formatBytes(entry.size)} · {formatDateTime(entry.modified, i18n.language, "—")}
      </p>
      {error && <RetryAlert message={error} onRetry={refresh} />}
      {!error && !file && <Spinner />}
      {file && editing && (
        <Suspense fallback={<Spinner />}>
          <TextEditor
            entry={entry}
            url={file.preview_url}
            onCancel={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              onSaved(saved);
            }}
          />
        </Suspense>
      )}
      {file && !editing && (kind === "office" ? <OfficeViewer file={file} /> : (
        <FilePreview
          key={file.preview_url}
          file={file}
          onRefresh={refresh}
          downloadHref={file.download_url}
        />
      ))}
    </Modal>
  );
}
