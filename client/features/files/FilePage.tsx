/**
 * The file view (`/file/:slug`), rendered on the server and hydrated in the browser.
 *
 * The server renders metadata only (`useInitialData().page`), because rendering must never use
 * up a view. The first client render uses that same data, so hydration matches; then the
 * browser opens the share: at once when it has no password (this counts the view), or after
 * the password form. The opened share carries preview and download links with a signed token
 * that do not count again. Browser-only things (local times, the share link and QR code,
 * manage rights of the logged-in user) appear after hydration.
 *
 * Styles: the server imports this module, and Deno cannot import CSS, so files.css is imported
 * by the app entry (client/main.tsx), whose stylesheet share pages load too.
 */
import {
  type ComponentProps,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { lazyPage } from "../../app/lazy_page.ts";
import { useAuth } from "../../auth/auth_store.ts";
import { ApiError, offlineSavedAtOf } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import { PageErrorBoundary } from "../../components/PageErrorBoundary.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { toast } from "../../components/toast.ts";
import { paths } from "../../../shared/app_paths.ts";
import { hasPermission, Permission } from "../../../shared/permissions.ts";
import {
  apiHref,
  type FileMeta,
  type FileView,
  findFileBySlug,
  getFile,
  openFile,
  type PublicFileView,
  unlockFile,
  withSlug,
} from "./files_api.ts";
import { fileScreenForError, initialFileScreen } from "./file_screen.ts";
import { FileError } from "./FileError.tsx";
import { FileInfoCard } from "./FileInfo.tsx";
import { SharePasswordForm } from "../../components/SharePasswordForm.tsx";
import { FileShare } from "./FileShare.tsx";
import { FileDeleted, FileDeleteDialog } from "./FileDelete.tsx";
import type { FilePreview as LoadedPreview } from "./previews/FilePreview.tsx";
import {
  dropShareCopy,
  isNetworkFailure,
  keepShareCopy,
  readShareCopy,
} from "../../offline/share_copies.ts";
import { OfflineCopyNote } from "../../offline/OfflineCopyNote.tsx";
import { E2EFileView } from "../e2e/E2EFileView.tsx";
import { ShareRoute, useShareScreen } from "../../components/ShareScreen.tsx";
import { useManagedRecord } from "../../components/use_managed_record.ts";
import { ShareManageButtons } from "../../components/ShareManageButtons.tsx";

const FileEditDialog = lazy(() => import("./FileEditDialog.tsx"));
/** The previews and their libraries load once the share is open: never part of hydration. */
const FilePreview = lazyPage<ComponentProps<typeof LoadedPreview>>(() =>
  import("./previews/FilePreview.tsx").then((m) => ({ default: m.FilePreview }))
);

export function FilePage() {
  return <ShareRoute titleKey="pageTitle.file" screen={FileScreen} />;
}

function FileScreen({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The document holds metadata only; the open below says whether the share is a copy.
  const { screen, setScreen, mounted, isClient } = useShareScreen(slug, initialFileScreen);
  const [dialog, setDialog] = useState<"edit" | "delete" | null>(null);
  const opening = useRef(false);

  // Open the share once (a guard, not a cleanup: a second request would count a second view).
  const openingMeta = screen.kind === "opening" ? screen.meta : null;
  const openingPassword = screen.kind === "opening" ? screen.password : undefined;
  useEffect(() => {
    if (screen.kind !== "opening" || opening.current) return;
    opening.current = true;
    (openingPassword === undefined ? openFile(slug) : unlockFile(slug, openingPassword))
      .then((file) => {
        // The service worker's copy when the network failed: shown as one, never kept again.
        const savedAt = offlineSavedAtOf(file);
        // An open share is kept for offline reading; a protected or view-limited one never is.
        if (openingPassword === undefined && savedAt === null) keepShareCopy("files", file);
        if (!mounted.current) return;
        if (savedAt === null) setScreen({ kind: "ready", file, password: openingPassword });
        else setScreen({ kind: "ready", file, offlineSavedAt: savedAt });
      })
      .catch(async (err) => {
        const copy = isNetworkFailure(err) && openingPassword === undefined
          ? await readShareCopy<PublicFileView>("files", slug)
          : null;
        if (!copy && err instanceof ApiError && err.status > 0) await dropShareCopy("files", slug);
        if (!mounted.current) return;
        if (copy) setScreen({ kind: "ready", file: copy.data, offlineSavedAt: copy.savedAt });
        else setScreen(fileScreenForError(err, openingMeta, errorText(t, err)));
      })
      .finally(() => {
        opening.current = false;
      });
  }, [screen.kind, slug, openingMeta, openingPassword, t]);

  // Manage rights: the managed record, asked for as the logged-in user. A
  // locked share has no id yet; the manager finds it by its slug.
  const auth = useAuth();
  const mayManageFiles = auth.authType === "admin" ||
    (auth.authType === "apikey" && hasPermission(auth.permissions, Permission.FILE_SHARE));
  const fileId = screen.kind === "ready" ? screen.file.id : null;
  const locked = screen.kind === "password" || screen.kind === "e2e";
  const loadManaged = useCallback(() => {
    if (!mayManageFiles || (!fileId && !locked)) return null;
    return fileId ? getFile(fileId) : findFileBySlug(slug);
  }, [mayManageFiles, fileId, locked, slug]);
  const [managed, setManaged] = useManagedRecord<FileView>(loadManaged);

  const saved = (next: FileView, password: string | null | undefined) => {
    setDialog(null);
    setManaged(next);
    toast.success(t("file.edit.saved"));
    const facts = {
      remark: next.remark,
      expires_at: next.expires_at,
      max_views: next.max_views,
      views: next.views,
      has_password: next.has_password,
    };
    if (screen.kind === "ready") {
      const pw = password === undefined ? screen.password : password ?? undefined;
      // The links' view token is bound to the password and the view limit: a change to
      // either retires it, so the share is opened again (one counted view) for fresh links.
      const retired = password !== undefined || next.max_views !== screen.file.max_views;
      if (retired && next.slug !== slug) {
        navigate(paths.file(next.slug), { replace: true, state: { reopen: true, password: pw } });
      } else if (retired) {
        setScreen({ kind: "opening", meta: null, password: pw });
      } else {
        const file = withSlug({ ...screen.file, ...facts }, next.slug);
        setScreen({ kind: "ready", file, password: pw });
        if (next.slug !== slug) {
          navigate(paths.file(next.slug), { replace: true, state: { file, password: pw } });
        }
      }
    } else if (screen.kind === "password" || screen.kind === "opening") {
      const meta = screen.meta ? { ...screen.meta, ...facts, slug: next.slug } : null;
      setScreen({ ...screen, meta });
      if (next.slug !== slug) navigate(paths.file(next.slug), { replace: true });
    }
  };

  if (screen.kind === "deleted") return <FileDeleted />;
  if (screen.kind === "e2e") {
    return (
      <E2EFileView
        slug={slug}
        meta={screen.meta}
        descriptor={screen.e2e}
        managed={managed}
        onGone={(err) => setScreen(fileScreenForError(err, null, errorText(t, err)))}
        onDeleted={() => setScreen({ kind: "deleted" })}
      />
    );
  }
  if (screen.kind === "error") {
    return (
      <FileError
        status={screen.status}
        code={screen.code}
        message={screen.message}
        onRetry={() => setScreen({ kind: "opening", meta: null })}
      />
    );
  }

  const file: FileMeta | null = screen.kind === "ready" ? screen.file : screen.meta;
  const title = file?.filename ?? managed?.filename ?? slug;
  const ready = screen.kind === "ready" ? screen : null;
  // An offline copy keeps the share's details only: its links need the server.
  const offlineCopy = ready?.offlineSavedAt !== undefined;
  // Fresh links: open the share again (with the password it was unlocked with).
  const refresh = () =>
    ready && setScreen({ kind: "opening", meta: ready.file, password: ready.password });

  return (
    <article className="file-page" aria-labelledby="file-title">
      <header className="file-head">
        <div className="file-head-title">
          <h1 id="file-title">{title}</h1>
          <p className="muted file-slug">
            {t("file.title")} · <code>{slug}</code>
          </p>
        </div>
        <div className="file-head-actions">
          {ready && !offlineCopy && (
            <a className="btn btn-primary" href={apiHref(ready.file.download_url)} download>
              {t("file.download")}
            </a>
          )}
          {managed && <ShareManageButtons kind="file" onOpen={setDialog} />}
        </div>
      </header>

      {screen.kind === "ready" && screen.offlineSavedAt !== undefined && (
        <OfflineCopyNote savedAt={screen.offlineSavedAt} />
      )}
      <div className="file-layout">
        <section className="file-card file-main" aria-label={t("preview.label")}>
          {screen.kind === "password" && (
            <SharePasswordForm
              kind="file"
              ready={isClient}
              unlock={(password) => unlockFile(slug, password)}
              onUnlocked={(f, password) => setScreen({ kind: "ready", file: f, password })}
            />
          )}
          {screen.kind === "opening" && (
            <div className="file-preview-loading">
              <Spinner />
              <p className="muted">{t("file.opening")}</p>
            </div>
          )}
          {ready && offlineCopy && (
            <div className="file-offline" role="status">
              <p>{t("file.offline.unavailable")}</p>
            </div>
          )}
          {ready && !offlineCopy && (
            <PageErrorBoundary>
              <Suspense fallback={<Spinner />}>
                <FilePreview
                  key={ready.file.preview_url}
                  file={ready.file}
                  password={ready.password}
                  onRefresh={refresh}
                  downloadHref={apiHref(ready.file.download_url)}
                />
              </Suspense>
            </PageErrorBoundary>
          )}
        </section>

        <aside className="file-side">
          {file && <FileInfoCard file={file} local={isClient} />}
          {isClient && <FileShare slug={slug} />}
        </aside>
      </div>

      {dialog === "edit" && managed && (
        <Suspense fallback={null}>
          <FileEditDialog file={managed} onClose={() => setDialog(null)} onSaved={saved} />
        </Suspense>
      )}
      {managed && (
        <FileDeleteDialog
          open={dialog === "delete"}
          file={managed}
          onCancel={() => setDialog(null)}
          onDeleted={() => setScreen({ kind: "deleted" })}
        />
      )}
    </article>
  );
}
