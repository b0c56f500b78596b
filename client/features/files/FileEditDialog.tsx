/**
 * Editing a file share in a dialog (PUT /api/files/:id): link suffix, remark, password,
 * expiry, max views and proxy access. It reuses the paste screens' share options. Only changed
 * fields are sent: sending max_views resets the view counter, an absent password keeps it.
 */
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client.ts";
import { saveErrorText } from "../../api/save_errors.ts";
import { Modal } from "../../components/Modal.tsx";
import {
  type ShareOptionErrors,
  ShareOptions,
  type ShareOptionValues,
} from "../pastes/ShareOptions.tsx";
import {
  checkSlug,
  expiresAtFor,
  type ExpiryPresetId,
  parseMaxViews,
} from "../pastes/paste_form.ts";
import { formatDateTime } from "../pastes/time.ts";
import { type FileView, updateFile, type UpdateFileInput } from "./files_api.ts";
// Lazy modules only: see FilePage.tsx on why the file styles are imported here.

export default function FileEditDialog(
  { file, onClose, onSaved }: {
    file: FileView;
    onClose: () => void;
    /** `password`: the new password, null when removed, undefined when unchanged. */
    onSaved: (file: FileView, password: string | null | undefined) => void;
  },
) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const idPrefix = `file-edit-${file.id}`;
  const [options, setOptions] = useState<ShareOptionValues>({
    slug: file.slug,
    remark: file.remark ?? "",
    password: "",
    expiry: "keep",
    maxViews: String(file.max_views),
    removePassword: false,
  });
  const [useProxy, setUseProxy] = useState(file.use_proxy);
  const [slugServerError, setSlugServerError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const slug = options.slug.trim();
  const slugCode = slug === "" ? "slug_invalid" : checkSlug(slug);
  const maxViews = parseMaxViews(options.maxViews);
  const errors: ShareOptionErrors = {
    slug: slugCode ? t(`errors.${slugCode}`) : slugServerError,
    maxViews: maxViews === null ? t("errors.max_views_invalid") : null,
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setFormError(null);
    if (slugCode || maxViews === null) {
      document.getElementById(`${idPrefix}-${slugCode ? "slug" : "max-views"}`)?.focus();
      return;
    }
    const input: UpdateFileInput = {};
    if (slug !== file.slug) input.slug = slug;
    const remark = options.remark.trim();
    if (remark !== (file.remark ?? "")) input.remark = remark;
    if (options.removePassword) input.password = null;
    else if (options.password !== "") input.password = options.password;
    if (options.expiry !== "keep") {
      input.expires_at = expiresAtFor(options.expiry as ExpiryPresetId);
    }
    if (maxViews !== file.max_views) input.max_views = maxViews;
    if (useProxy !== file.use_proxy) input.use_proxy = useProxy;
    if (Object.keys(input).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    try {
      onSaved(await updateFile(file.id, input), input.password);
    } catch (err) {
      const text = saveErrorText(t, err);
      if (err instanceof ApiError && err.code.startsWith("slug_")) {
        setSlugServerError(text);
        document.getElementById(`${idPrefix}-slug`)?.focus();
      } else setFormError(text);
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t("file.edit.title", { name: file.filename })}
      onClose={onClose}
      dismissible={!busy}
      className="file-edit-modal"
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
      <form id={formId} className="form file-edit-form" onSubmit={submit} noValidate>
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
            hasPassword: file.has_password,
            keepExpiryLabel: file.expires_at
              ? t("paste.form.keepExpiry", {
                time: formatDateTime(file.expires_at, i18n.language, true),
              })
              : t("paste.form.keepNever"),
          }}
        />
        <div className="field">
          <label className="check">
            <input
              id={`${idPrefix}-proxy`}
              type="checkbox"
              checked={useProxy}
              disabled={busy}
              aria-describedby={`${idPrefix}-proxy-hint`}
              onChange={(e) => setUseProxy(e.currentTarget.checked)}
            />
            <span>{t("file.edit.useProxy")}</span>
          </label>
          <p id={`${idPrefix}-proxy-hint`} className="field-hint">{t("file.edit.useProxyHint")}</p>
        </div>
        {formError && <p className="form-error" role="alert">{formError}</p>}
      </form>
    </Modal>
  );
}
