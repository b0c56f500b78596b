/**
 * Home (`/`, docs/PRODUCT.md §2.1, §3.1): write Markdown, preview it, set the share's options
 * and create it. Creating needs the admin or a key with TEXT; without it the editor still works and
 * a notice links to the login. The text is kept as a local draft, so logging in does not lose it.
 */
import { type FormEvent, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useAuth } from "../../auth/auth_store.ts";
import { usePageTitle } from "../../app/use_page_title.ts";
import { ApiError } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { paths } from "../../../shared/app_paths.ts";
import { hasPermission, Permission } from "../../../shared/permissions.ts";
import { MAX_PASTE_BYTES } from "../../../shared/constants.ts";
import { createPaste, type PasteView } from "./pastes_api.ts";
import { checkContent, utf8ByteLength } from "./paste_form.ts";
import {
  checkSlug,
  expiresAtFor,
  type ExpiryPresetId,
  parseMaxViews,
} from "../../components/share_form.ts";
import { EditorPanes } from "./EditorPanes.tsx";
import { ByteCounter } from "./ByteCounter.tsx";
import {
  type ShareOptionErrors,
  ShareOptions,
  type ShareOptionValues,
} from "../../components/ShareOptions.tsx";
import { CreatedShare } from "./CreatedShare.tsx";
import { QueuedOfflineError } from "../../offline/queued_api.ts";
import { useQueuedPaste } from "../../offline/use_queued_paste.ts";
import { useSharedText } from "../../offline/use_shared_text.ts";
import { isNetworkFailure } from "../../offline/share_copies.ts";
import { E2EToggle } from "../e2e/E2EToggle.tsx";

const DRAFT_KEY = "cubby.pasteDraft";
/** Drafts larger than this are not kept (localStorage holds about 5 MB). */
const MAX_DRAFT_CHARS = 1_000_000;

const EMPTY_OPTIONS: ShareOptionValues = {
  slug: "",
  remark: "",
  password: "",
  expiry: "never",
  maxViews: "0",
  removePassword: false,
};

function loadDraft(): string {
  try {
    return globalThis.localStorage?.getItem(DRAFT_KEY) ?? "";
  } catch {
    return "";
  }
}

function saveDraft(content: string) {
  try {
    if (content && content.length <= MAX_DRAFT_CHARS) localStorage.setItem(DRAFT_KEY, content);
    else localStorage.removeItem(DRAFT_KEY);
  } catch { /* storage full or unavailable: the draft is a convenience only */ }
}

export default function HomePage() {
  usePageTitle("pageTitle.home");
  const { t } = useTranslation();
  const auth = useAuth();
  const canCreate = auth.authType === "admin" ||
    (auth.authType === "apikey" && hasPermission(auth.permissions, Permission.TEXT));

  const [content, setContent] = useState(loadDraft);
  const deferred = useDeferredValue(content);
  const bytes = useMemo(() => utf8ByteLength(deferred), [deferred]);
  const [options, setOptions] = useState<ShareOptionValues>(EMPTY_OPTIONS);
  const [e2e, setE2e] = useState(false);
  const [contentError, setContentError] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<ShareOptionErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<PasteView | null>(null);
  /** Bumped after a share is created, to start over with a fresh editor. */
  const [formKey, setFormKey] = useState(0);
  const resultRef = useRef<HTMLElement>(null);
  const [queuedId, setQueuedId] = useQueuedPaste((paste) => setCreated(paste as PasteView));
  useSharedText((text) => setContent(text));

  useEffect(() => {
    const timer = setTimeout(() => saveDraft(deferred), 500);
    return () => clearTimeout(timer);
  }, [deferred]);

  useEffect(() => {
    if (created) resultRef.current?.focus();
  }, [created]);

  const slugCode = checkSlug(options.slug.trim());
  const maxViewsValid = parseMaxViews(options.maxViews) !== null;
  const errors: ShareOptionErrors = {
    slug: slugCode ? t(`errors.${slugCode}`) : serverErrors.slug,
    maxViews: maxViewsValid ? null : t("errors.max_views_invalid"),
  };
  const tooLarge = bytes > MAX_PASTE_BYTES;
  const shownContentError = tooLarge ? t("errors.content_too_large") : contentError;

  const changeContent = (value: string) => {
    setContent(value);
    if (contentError) setContentError(null);
  };
  const changeOptions = (patch: Partial<ShareOptionValues>) => {
    setOptions((o) => ({ ...o, ...patch }));
    if ("slug" in patch) setServerErrors({});
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canCreate || busy) return;
    setFormError(null);
    const contentCode = checkContent(content);
    const maxViews = parseMaxViews(options.maxViews);
    if (contentCode) {
      setContentError(t(`errors.${contentCode}`));
      document.querySelector<HTMLElement>(".paste-home .cm-content")?.focus();
      return;
    }
    if (slugCode || maxViews === null) {
      document.getElementById(slugCode ? "home-slug" : "home-max-views")?.focus();
      return;
    }
    setBusy(true);
    const reset = () => {
      setFormKey((k) => k + 1);
      setContent("");
      setOptions(EMPTY_OPTIONS);
      saveDraft("");
    };
    try {
      // End to end: encrypted here, never queued (loaded when used, with the format's code).
      const create = e2e ? (await import("../e2e/e2e_paste.ts")).createEncryptedPaste : createPaste;
      const paste = await create({
        content,
        slug: options.slug.trim() || undefined,
        remark: options.remark.trim() || undefined,
        password: options.password || undefined,
        expires_at: expiresAtFor(options.expiry as ExpiryPresetId),
        max_views: maxViews,
      });
      setCreated(paste);
      reset();
      toast.success(t("home.created"));
    } catch (err) {
      if (err instanceof QueuedOfflineError) {
        setCreated(null);
        setQueuedId(err.itemId);
        reset();
        return;
      }
      const text = e2e && isNetworkFailure(err) ? t("e2e.errors.offline") : errorText(t, err);
      if (err instanceof ApiError && err.code.startsWith("slug_")) {
        setServerErrors({ slug: text });
        document.getElementById("home-slug")?.focus();
      } else if (err instanceof ApiError && err.code.startsWith("content_")) {
        setContentError(text);
      } else setFormError(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page paste-home">
      <header className="page-header paste-home-head">
        <h1>{t("home.title")}</h1>
        <p className="muted">{t("home.intro")}</p>
      </header>

      {!canCreate && (
        <div id="home-create-notice" className="paste-notice" role="note">
          {auth.authType === "none"
            ? (
              <>
                <span>{t("home.loginRequired")}</span>{" "}
                <Link to={`${paths.login}?redirect=${encodeURIComponent(paths.home)}`}>
                  {t("home.loginLink")}
                </Link>
              </>
            )
            : <span>{t("home.noTextPermission")}</span>}
        </div>
      )}

      {queuedId !== null && (
        <section id="home-queued" className="paste-created paste-queued" role="status">
          <h2>{t("offlineData.queuedPaste.title")}</h2>
          <p>{t("offlineData.queuedPaste.body")}</p>
        </section>
      )}

      {created && (
        <CreatedShare
          ref={resultRef}
          paste={created}
          onDismiss={() => setCreated(null)}
        />
      )}

      <form className="paste-home-form" onSubmit={submit} noValidate>
        <EditorPanes
          key={formKey}
          value={content}
          onChange={changeContent}
          label={t("home.editor.label")}
          describedBy={shownContentError ? "home-content-error home-bytes" : "home-bytes"}
          invalid={!!shownContentError}
          bytes={bytes}
          toolbarEnd={<ByteCounter id="home-bytes" bytes={bytes} />}
        />
        {shownContentError && (
          <p id="home-content-error" className="field-error" role="alert">
            {shownContentError}
          </p>
        )}

        <fieldset className="paste-options-fieldset" disabled={busy}>
          <legend>{t("home.options")}</legend>
          <E2EToggle id="home-e2e" checked={e2e} onChange={setE2e} />
          <ShareOptions
            idPrefix="home"
            values={options}
            onChange={changeOptions}
            errors={errors}
          />
        </fieldset>

        {formError && <p className="form-error" role="alert">{formError}</p>}

        <div className="paste-home-submit">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!canCreate || busy}
            aria-busy={busy}
            aria-describedby={canCreate ? undefined : "home-create-notice"}
          >
            {t("home.create")}
          </button>
          {busy && <span className="muted" role="status">{t("home.creating")}</span>}
        </div>
      </form>
    </div>
  );
}
