/**
 * The shell of both share edit dialogs (text and file): the share options with their checks,
 * the changed fields only (sending max_views resets the view counter, an absent password keeps
 * the current one), and refusals placed on their field, or at the top of the form. Each dialog
 * adds its own fields.
 */
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client.ts";
import { saveErrorText } from "../api/save_errors.ts";
import { FormDialog } from "./FormDialog.tsx";
import type { ModalProps } from "./Modal.tsx";
import { checkSlug, expiresAtFor, type ExpiryPresetId, parseMaxViews } from "./share_form.ts";
import { type ShareOptionErrors, ShareOptions, type ShareOptionValues } from "./ShareOptions.tsx";
import { formatTimestamp } from "../lib/format.ts";

/** What the dialog reads of the share being edited. */
export type EditableShare = {
  slug: string;
  remark?: string | null;
  has_password: boolean;
  expires_at: string | null;
  max_views: number;
};

/** The share options that changed. */
export type ShareChanges = {
  slug?: string;
  remark?: string;
  password?: string | null;
  expires_at?: string | null;
  max_views?: number;
};

export function ShareEditDialog<C extends ShareChanges>(
  {
    share,
    kind,
    idPrefix,
    title,
    size,
    before,
    after,
    check,
    collect,
    save,
    placeError,
    onClose,
  }: {
    share: EditableShare;
    idPrefix: string;
    title: ReactNode;
    size?: ModalProps["size"];
    /** Which share: names the dialog's classes, `<kind>-edit-modal` and `<kind>-edit-form`. */
    kind: "paste" | "file";
    /** The dialog's own fields above and below the share options. */
    before?: (busy: boolean) => ReactNode;
    after?: (busy: boolean) => ReactNode;
    /** Checks the dialog's own fields before anything else; false stops the save. */
    check?: () => boolean;
    /** Adds the dialog's own changed fields to the share options' changes. */
    collect: (changes: ShareChanges) => C;
    save: (changes: C) => Promise<void>;
    /** Places a refusal on the dialog's own field; true when it did. */
    placeError?: (err: ApiError, text: string) => boolean;
    onClose: () => void;
  },
) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const [options, setOptions] = useState<ShareOptionValues>({
    slug: share.slug,
    remark: share.remark ?? "",
    password: "",
    expiry: "keep",
    maxViews: String(share.max_views),
    removePassword: false,
  });
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
    if (check && !check()) return;
    if (slugCode || maxViews === null) {
      document.getElementById(`${idPrefix}-${slugCode ? "slug" : "max-views"}`)?.focus();
      return;
    }
    const changes: ShareChanges = {};
    if (slug !== share.slug) changes.slug = slug;
    const remark = options.remark.trim();
    if (remark !== (share.remark ?? "")) changes.remark = remark;
    if (options.removePassword) changes.password = null;
    else if (options.password !== "") changes.password = options.password;
    if (options.expiry !== "keep") {
      changes.expires_at = expiresAtFor(options.expiry as ExpiryPresetId);
    }
    if (maxViews !== share.max_views) changes.max_views = maxViews;
    const input = collect(changes);
    if (Object.keys(input).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    try {
      await save(input);
    } catch (err) {
      const text = saveErrorText(t, err);
      if (err instanceof ApiError && err.code.startsWith("slug_")) {
        setSlugServerError(text);
        document.getElementById(`${idPrefix}-slug`)?.focus();
      } else if (!(err instanceof ApiError && placeError?.(err, text))) setFormError(text);
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title={title}
      formId={formId}
      formClassName={`${kind}-edit-form`}
      form={{ submit, busy }}
      onClose={onClose}
      size={size}
      className={`${kind}-edit-modal`}
      error={formError}
    >
      {before?.(busy)}
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
          hasPassword: share.has_password,
          keepExpiryLabel: share.expires_at
            ? t("paste.form.keepExpiry", {
              time: formatTimestamp(share.expires_at, i18n.language, true),
            })
            : t("paste.form.keepNever"),
        }}
      />
      {after?.(busy)}
    </FormDialog>
  );
}
