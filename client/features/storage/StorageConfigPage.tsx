/**
 * S3 storage config (`/admin/storage-config`, admin only): the configs as cards with usage,
 * and create, edit, test, set-default and delete (spec §2, §7 "S3 configs").
 */
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { ConfirmDialog } from "../../components/Modal.tsx";
import {
  deleteStorageConfig,
  listStorageConfigs,
  setDefaultStorageConfig,
  type StorageConfigView,
} from "./storage_api.ts";
import { StorageConfigCard } from "./StorageConfigCard.tsx";
import { StorageConfigDialog } from "./StorageConfigDialog.tsx";
import { StorageTestDialog } from "./StorageTestDialog.tsx";
import { RetryAlert } from "../../components/RetryAlert.tsx";

type Dialog =
  | { kind: "none" }
  | { kind: "create" }
  | { kind: "edit"; config: StorageConfigView }
  | { kind: "test"; config: StorageConfigView }
  | { kind: "delete"; config: StorageConfigView };

export default function StorageConfigPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.storageConfig");
  const [configs, setConfigs] = useState<StorageConfigView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<Dialog>({ kind: "none" });
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    setLoadError(null);
    try {
      setConfigs(await listStorageConfigs());
    } catch (err) {
      setLoadError(errorText(t, err));
    } finally {
      setLoading(false);
    }
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);

  const close = () => setDialog({ kind: "none" });

  const onSaved = () => {
    toast.success(t(dialog.kind === "create" ? "storage.toast.created" : "storage.toast.updated"));
    close();
    void load();
  };

  const setDefault = async (c: StorageConfigView) => {
    setBusy(true);
    try {
      await setDefaultStorageConfig(c.id);
      toast.success(t("storage.toast.defaultSet", { name: c.name }));
      await load();
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  const onDelete = async () => {
    if (dialog.kind !== "delete") return;
    setBusy(true);
    try {
      await deleteStorageConfig(dialog.config.id);
      toast.success(t("storage.toast.deleted", { name: dialog.config.name }));
      close();
      void load();
    } catch (err) {
      toast.error(errorText(t, err));
      close();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page storage-page">
      <header className="page-header">
        <div>
          <h1>{t("storage.title")}</h1>
          <p className="muted">{t("storage.description")}</p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn" onClick={() => void load()} disabled={loading}>
            {t("storage.refresh")}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setDialog({ kind: "create" })}
          >
            {t("storage.create")}
          </button>
        </div>
      </header>

      {loadError && <RetryAlert message={loadError} onRetry={() => void load()} />}

      {configs === null && !loadError && <Spinner />}
      {configs !== null && configs.length === 0 && (
        <p className="empty-state">{t("storage.empty")}</p>
      )}
      {configs !== null && configs.length > 0 && (
        <div className="storage-grid">
          {configs.map((c) => (
            <StorageConfigCard
              key={c.id}
              config={c}
              busy={busy}
              onEdit={() => setDialog({ kind: "edit", config: c })}
              onTest={() => setDialog({ kind: "test", config: c })}
              onSetDefault={() => void setDefault(c)}
              onDelete={() => setDialog({ kind: "delete", config: c })}
            />
          ))}
        </div>
      )}

      {(dialog.kind === "create" || dialog.kind === "edit") && (
        <StorageConfigDialog
          editing={dialog.kind === "edit" ? dialog.config : null}
          onClose={close}
          onSaved={onSaved}
        />
      )}
      {dialog.kind === "test" && <StorageTestDialog config={dialog.config} onClose={close} />}
      <ConfirmDialog
        open={dialog.kind === "delete"}
        title={t("storage.delete.title")}
        message={dialog.kind === "delete"
          ? t("storage.delete.confirm", { name: dialog.config.name })
          : ""}
        confirmLabel={t("storage.delete.submit")}
        danger
        busy={busy}
        onConfirm={() => void onDelete()}
        onCancel={close}
      />
    </section>
  );
}
