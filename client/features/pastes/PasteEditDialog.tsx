/**
 * Editing a share in a dialog: content, link suffix, remark, password, expiry and max views
 * (PUT /api/pastes/:id). Only changed fields are sent: the server resets the view counter
 * whenever max_views is sent, and an absent password keeps the current one.
 */
import { type FormEvent, useDeferredValue, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client.ts";
import { saveErrorText } from "../../api/save_errors.ts";
import { Modal } from "../../components/Modal.tsx";
import { MAX_PASTE_BYTES } from "../../../shared/constants.ts";
import { type PasteView, updatePaste, type UpdatePasteInput } from "./pastes_api.ts";
import {
  checkContent,
  checkSlug,
  expiresAtFor,
  type ExpiryPresetId,
  parseMaxViews,
  utf8ByteLength,
} from "./paste_form.ts";
import { EditorPanes } from "./EditorPanes.tsx";
import { ByteCounter } from "./ByteCounter.tsx";
import { type ShareOptionErrors, ShareOptions, type ShareOptionValues } from "./ShareOptions.tsx";
import { formatDateTime } from "./time.ts";

export default function PasteEditDialog(
  { paste, onClose, onSaved }: {
    /** The share as its manager reads it (with content). */
    paste: PasteView;
    onClose: () => void;
    onSaved: (paste: PasteView) => void;
  },
) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const original = paste.content ?? "";
  const [content, setContent] = useState(original);
  const deferred = useDeferredValue(content);
  const bytes = useMemo(() => utf8ByteLength(deferred), [deferred]);
  const [options, setOptions] = useState<ShareOptionValues>({
    slug: paste.slug,
    remark: paste.remark ?? "",
    password: "",
    expiry: "keep",
    maxViews: String(paste.max_views),
    removePassword: false,
  });
  const [contentError, setContentError] = useState<string | null>(null);
  const [slugServerError, setSlugServerError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const slugCode = checkSlug(options.slug.trim()) ??
    (options.slug.trim() === "" ? "slug_invalid" : null);
  const maxViews = parseMaxViews(options.maxViews);
  const errors: ShareOptionErrors = {
    slug: slugCode ? t(`errors.${slugCode}`) : slugServerError,
    maxViews: maxViews === null ? t("errors.max_views_invalid") : null,
  };
  const shownContentError = bytes > MAX_PASTE_BYTES ? t("errors.content_too_large") : contentError;
  const idPrefix = `edit-${paste.id}`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setFormError(null);
    const contentCode = checkContent(content);
    if (contentCode) {
      setContentError(t(`errors.${contentCode}`));
      return;
    }
    if (slugCode || maxViews === null) {
      document.getElementById(`${idPrefix}-${slugCode ? "slug" : "max-views"}`)?.focus();
      return;
    }
    const input: UpdatePasteInput = {};
    if (content !== original) input.content = content;
    const slug = options.slug.trim();
    if (slug !== paste.slug) input.slug = slug;
    const remark = options.remark.trim();
    if (remark !== (paste.remark ?? "")) input.remark = remark;
    if (options.removePassword) input.password = null;
    else if (options.password !== "") input.password = options.password;
    if (options.expiry !== "keep") {
      input.expires_at = expiresAtFor(options.expiry as ExpiryPresetId);
    }
    if (maxViews !== paste.max_views) input.max_views = maxViews;
    if (Object.keys(input).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    try {
      const next = await updatePaste(paste.id, input);
      onSaved({ ...next, content: next.content ?? input.content ?? original });
    } catch (err) {
      const text = saveErrorText(t, err);
      if (err instanceof ApiError && err.code.startsWith("slug_")) {
        setSlugServerError(text);
        document.getElementById(`${idPrefix}-slug`)?.focus();
      } else if (err instanceof ApiError && err.code.startsWith("content_")) {
        setContentError(text);
      } else setFormError(text);
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t("paste.edit.title", { slug: paste.slug })}
      onClose={onClose}
      dismissible={!busy}
      size="large"
      className="paste-edit-modal"
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button
            type="submit"
            form={formId}
            className="btn btn-primary"
            disabled={busy}
            aria-busy={busy}
          >
            {t("common.save")}
          </button>
        </>
      }
    >
      <form id={formId} className="form paste-edit-form" onSubmit={submit} noValidate>
        <EditorPanes
          value={content}
          onChange={(v) => {
            setContent(v);
            setContentError(null);
          }}
          label={t("paste.edit.content")}
          describedBy={shownContentError ? `${idPrefix}-content-error` : undefined}
          invalid={!!shownContentError}
          bytes={bytes}
          toolbarEnd={<ByteCounter bytes={bytes} />}
          compact
        />
        {shownContentError && (
          <p id={`${idPrefix}-content-error`} className="field-error" role="alert">
            {shownContentError}
          </p>
        )}
        <ShareOptions
          idPrefix={idPrefix}
          values={options}
          onChange={(patch) => {
            setOptions((o) => ({ ...o, ...patch }));
            if ("slug" in patch) setSlugServerError(null);
          }}
          errors={errors}
          disabled={busy}
          edit={{
            hasPassword: paste.has_password,
            keepExpiryLabel: paste.expires_at
              ? t("paste.form.keepExpiry", {
                time: formatDateTime(paste.expires_at, i18n.language, true),
              })
              : t("paste.form.keepNever"),
          }}
        />
        {formError && <p className="form-error" role="alert">{formError}</p>}
      </form>
    </Modal>
  );
}
