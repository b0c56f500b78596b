/**
 * The paste view (`/paste/:slug`), rendered on the server and hydrated in the browser.
 *
 * The first render must match the server's markup, so it is built from the server's page data
 * alone (`useInitialData().page`): a plain share arrives with its sanitised HTML; a protected
 * or view-limited one arrives as metadata, because rendering it must not use up a view, and the
 * browser then asks for the content (at once for "view", after the password for "password").
 * Anything that depends on the browser (local times, absolute links, the QR code, manage
 * rights of the logged-in user) appears after hydration.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useAuth } from "../../auth/auth_store.ts";
import { ApiError, offlineSavedAtOf } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { toast } from "../../components/toast.ts";
import { paths } from "../../../shared/app_paths.ts";
import { hasPermission, Permission } from "../../../shared/permissions.ts";
import { deletePastes, fetchPaste, getPaste, type PasteView, unlockPaste } from "./pastes_api.ts";
import { useRenderedMarkdown } from "../../components/MarkdownView.tsx";
import { PasteMeta } from "./PasteMeta.tsx";
import { PasteContent } from "./PasteContent.tsx";
import { PasteError } from "./PasteError.tsx";
import { initialPasteScreen, pasteScreenForError } from "./paste_screen.ts";
import { SharePasswordForm } from "../../components/SharePasswordForm.tsx";
import { ShareLink, shareUrl } from "./ShareLink.tsx";
import {
  documentCopySavedAt,
  dropShareCopy,
  isNetworkFailure,
  keepShareCopy,
  readShareCopy,
} from "../../offline/share_copies.ts";
import { OfflineCopyNote } from "../../offline/OfflineCopyNote.tsx";
import { E2EPasteView } from "../e2e/E2EPasteView.tsx";
import { ShareRoute, useShareScreen } from "../../components/ShareScreen.tsx";
import { useManagedRecord } from "../../components/use_managed_record.ts";
import { ShareManageButtons } from "../../components/ShareManageButtons.tsx";

const PasteEditDialog = lazy(() => import("./PasteEditDialog.tsx"));

/**
 * Shares larger than this are first shown as plain text: rendering and sanitising several MB
 * of Markdown in the browser takes long enough to freeze the page. The visitor may ask for it.
 */
const AUTO_RENDER_MAX_BYTES = 512 * 1024;

export function PastePage() {
  return <ShareRoute titleKey="pageTitle.paste" screen={PasteScreen} />;
}

function PasteScreen({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // A document the service worker answered from its cache (offline): its first screen is a copy.
  const [documentCopy] = useState(documentCopySavedAt);
  const { screen, setScreen, mounted, isClient } = useShareScreen(slug, initialPasteScreen);
  const [dialog, setDialog] = useState<"edit" | "delete" | null>(null);
  const [deleting, setDeleting] = useState(false);
  const fetching = useRef(false);

  useEffect(() => {
    if (documentCopy !== null) {
      setScreen((s) => s.kind === "ready" ? { ...s, offlineSavedAt: documentCopy } : s);
    }
  }, []);

  // Fetch the content once (a guard, not a cleanup: a second request would count a second view).
  const loadingMeta = screen.kind === "loading" ? screen.meta : null;
  useEffect(() => {
    if (screen.kind !== "loading" || fetching.current) return;
    fetching.current = true;
    fetchPaste(slug)
      .then((paste) => {
        // The service worker's copy when the network failed: shown as one, never kept again.
        const savedAt = offlineSavedAtOf(paste);
        if (!mounted.current) return;
        if (savedAt === null) setScreen({ kind: "ready", paste, html: null });
        else setScreen({ kind: "ready", paste, html: null, offlineSavedAt: savedAt });
      })
      .catch(async (err) => {
        const copy = isNetworkFailure(err) ? await readShareCopy<PasteView>("pastes", slug) : null;
        if (!copy && err instanceof ApiError && err.status > 0) await dropShareCopy("pastes", slug);
        if (!mounted.current) return;
        if (copy) {
          setScreen({ kind: "ready", paste: copy.data, html: null, offlineSavedAt: copy.savedAt });
        } else setScreen(pasteScreenForError(err, loadingMeta, errorText(t, err)));
      })
      .finally(() => {
        fetching.current = false;
      });
  }, [screen.kind, slug, loadingMeta, t]);

  // An open share read from the server is kept for offline reading (never a protected one).
  const readyPaste = screen.kind === "ready" && screen.offlineSavedAt === undefined &&
      !screen.password && documentCopy === null
    ? screen.paste
    : null;
  useEffect(() => {
    if (readyPaste && typeof readyPaste.content === "string") keepShareCopy("pastes", readyPaste);
  }, [readyPaste]);

  const paste = screen.kind === "ready"
    ? screen.paste
    : screen.kind === "error"
    ? null
    : screen.meta;
  // An end-to-end encrypted paste always has the server-side token; show the user's password.
  const facts = paste?.e2e ? { ...paste, has_password: paste.e2e.has_password } : paste;
  const showGone = useCallback((err: ApiError) => setScreen({ kind: "error", code: err.code }), []);
  const [renderLarge, setRenderLarge] = useState(false);
  const needsClientRender = screen.kind === "ready" && screen.html === null;
  const large = needsClientRender && screen.paste.content_size > AUTO_RENDER_MAX_BYTES;
  const showPlain = large && !renderLarge;
  const clientHtml = useRenderedMarkdown(
    needsClientRender && !showPlain ? screen.paste.content : null,
  );
  const html = screen.kind === "ready" ? screen.html ?? clientHtml : null;

  // Manage rights: the server renders anonymously, so ask again as the logged-in user: the
  // admin manages every share, a key with TEXT the ones it created.
  const auth = useAuth();
  const mayManageTexts = auth.authType === "admin" ||
    (auth.authType === "apikey" && hasPermission(auth.permissions, Permission.TEXT) &&
      paste?.created_by === `apikey:${auth.keyInfo?.id}`);
  const pasteId = paste?.id ?? null;
  const loadManaged = useCallback(
    () => mayManageTexts && pasteId ? getPaste(pasteId) : null,
    [mayManageTexts, pasteId],
  );
  const [managed, setManaged] = useManagedRecord<PasteView>(loadManaged);
  const canManage = managed !== null;

  const saved = (next: PasteView) => {
    setDialog(null);
    setManaged(next);
    toast.success(t("paste.edit.saved"));
    const wasReady = screen.kind === "ready";
    if (screen.kind === "ready") {
      setScreen({
        kind: "ready",
        paste: {
          ...next,
          content: next.content ?? screen.paste.content,
          raw_url: screen.paste.raw_url,
        },
        html: null,
      });
    } else if (screen.kind !== "error") setScreen({ ...screen, meta: next });
    if (next.slug !== slug) {
      navigate(paths.paste(next.slug), { replace: true, state: wasReady ? { paste: next } : null });
    }
  };

  const remove = async () => {
    if (!pasteId) return;
    setDeleting(true);
    try {
      const r = await deletePastes([pasteId]);
      if (r.deleted > 0) {
        toast.success(t("paste.delete.done"));
        navigate(paths.home);
        return;
      }
      toast.error(t("errors.not_creator"));
    } catch (err) {
      toast.error(errorText(t, err));
    }
    setDeleting(false);
    setDialog(null);
  };

  if (screen.kind === "error") {
    return (
      <PasteError
        code={screen.code}
        message={screen.message}
        onRetry={() => setScreen({ kind: "loading", meta: null })}
      />
    );
  }

  // The opened paste's raw link carries a view token when it needs one, never the password.
  const rawHref = (screen.kind === "ready" && screen.paste.raw_url) || paths.rawPaste(slug);

  return (
    <article className="page paste-page" aria-labelledby="paste-title">
      <header className="paste-page-head">
        <div className="paste-page-title">
          <h1 id="paste-title">{t("paste.title")}</h1>
          <p className="paste-slug">
            <code>{slug}</code>
          </p>
        </div>
        {canManage && <ShareManageButtons kind="paste" onOpen={setDialog} />}
      </header>

      {facts && <PasteMeta paste={facts} local={isClient} />}

      {screen.kind === "e2e" && (
        <E2EPasteView slug={slug} descriptor={screen.e2e} onGone={showGone} />
      )}

      {screen.kind === "ready" && screen.offlineSavedAt !== undefined && (
        <OfflineCopyNote savedAt={screen.offlineSavedAt} />
      )}

      {screen.kind === "password" && (
        <SharePasswordForm
          kind="paste"
          ready={isClient}
          unlock={(password) => unlockPaste(slug, password)}
          onUnlocked={(p, password) =>
            setScreen({ kind: "ready", paste: p, html: null, password })}
        />
      )}

      {(screen.kind === "loading" || (screen.kind === "ready" && html === null && !showPlain)) && (
        <div className="paste-loading">
          <Spinner />
          <p className="muted">{t("paste.loadingContent")}</p>
        </div>
      )}

      {screen.kind === "ready" && (
        <PasteContent
          content={screen.paste.content ?? ""}
          html={showPlain ? null : html}
          plain={showPlain}
          rawHref={rawHref}
          onRenderLarge={() => setRenderLarge(true)}
        />
      )}

      {isClient && paste && screen.kind !== "e2e" && (
        <section className="paste-share" aria-labelledby="paste-share-title">
          <h2 id="paste-share-title">{t("paste.share.title")}</h2>
          <ShareLink url={shareUrl(paste)} showOpen={false} />
        </section>
      )}

      {dialog === "edit" && managed && (
        <Suspense fallback={null}>
          <PasteEditDialog
            paste={managed}
            onClose={() => setDialog(null)}
            onSaved={saved}
          />
        </Suspense>
      )}
      <ConfirmDialog
        open={dialog === "delete"}
        title={t("paste.delete.title")}
        message={t("paste.delete.message", { slug })}
        confirmLabel={t("paste.delete.confirm")}
        danger
        busy={deleting}
        onConfirm={() => void remove()}
        onCancel={() => setDialog(null)}
      />
    </article>
  );
}
