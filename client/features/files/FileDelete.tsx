/**
 * Deleting a share from its page: a confirmation, then a visible countdown back to the home
 * page (docs/PRODUCT.md §2.3).
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { errorText } from "../../api/errors.ts";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { toast } from "../../components/toast.ts";
import { paths } from "../../../shared/app_paths.ts";
import { deleteFiles, type FileView } from "./files_api.ts";

/** Seconds before the page goes home after a delete. */
export const DELETE_REDIRECT_SECONDS = 3;

export function FileDeleteDialog(
  { open, file, onCancel, onDeleted }: {
    open: boolean;
    file: FileView;
    onCancel: () => void;
    onDeleted: () => void;
  },
) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      const r = await deleteFiles([file.id], "both");
      if (r.deleted > 0) {
        onDeleted();
        return;
      }
      const code = r.failed[0]?.error ?? "forbidden";
      toast.error(t(`errors.${code}`, { defaultValue: t("errors.forbidden") }));
    } catch (err) {
      toast.error(errorText(t, err));
    }
    setBusy(false);
    onCancel();
  };
  return (
    <ConfirmDialog
      open={open}
      title={t("file.delete.title")}
      message={t("file.delete.message", { name: file.filename })}
      confirmLabel={t("common.delete")}
      danger
      busy={busy}
      onConfirm={() => void remove()}
      onCancel={onCancel}
    />
  );
}

/** The deleted state: counts down, then goes home (or at once on request). */
export function FileDeleted() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [left, setLeft] = useState(DELETE_REDIRECT_SECONDS);
  useEffect(() => {
    if (left <= 0) {
      navigate(paths.home);
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, navigate]);
  return (
    <section className="file-page status-page file-deleted" aria-labelledby="file-deleted-title">
      <h1 id="file-deleted-title">{t("file.delete.done")}</h1>
      <p className="countdown" role="status" aria-live="polite">
        {t("file.delete.redirect", { seconds: left })}
      </p>
      <p className="status-page-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() =>
            navigate(paths.home)}
        >
          {t("file.backHome")}
        </button>
      </p>
    </section>
  );
}
