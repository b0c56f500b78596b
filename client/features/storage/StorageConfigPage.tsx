/**
 * S3 storage config (`/admin/storage-config`, admin only): the configs as cards with usage,
 * and create, edit, test, set-default and delete (spec §2, §7 "S3 configs").
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { DeleteConfirmDialog } from "../../components/DeleteConfirmDialog.tsx";
import {
  deleteStorageConfig,
  listStorageConfigs,
  setDefaultStorageConfig,
  type StorageConfigView,
} from "./storage_api.ts";
import { StorageConfigCard } from "./StorageConfigCard.tsx";
import { StorageConfigDialog } from "./StorageConfigDialog.tsx";
import { StorageTestDialog } from "./StorageTestDialog.tsx";
import { AdminListPage } from "../../components/AdminListPage.tsx";
import { useLoadedList } from "../../components/use_admin_list.ts";

type Dialog =
  | { kind: "none" }
  | { kind: "create" }
  | { kind: "edit"; config: StorageConfigView }
  | { kind: "test"; config: StorageConfigView }
  | { kind: "delete"; config: StorageConfigView };

export default function StorageConfigPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.storageConfig");
  const list = useLoadedList(listStorageConfigs);
  const configs = list.data;
  const [dialog, setDialog] = useState<Dialog>({ kind: "none" });
  const [busy, setBusy] = useState(false);

  const close = () => setDialog({ kind: "none" });
  const editing = dialog.kind === "edit" ? dialog.config : null;

  const onSaved = () => {
    toast.success(t(dialog.kind === "create" ? "storage.toast.created" : "storage.toast.updated"));
    close();
    list.refresh();
  };

  const setDefault = async (c: StorageConfigView) => {
    setBusy(true);
    try {
      await setDefaultStorageConfig(c.id);
      toast.success(t("storage.toast.defaultSet", { name: c.name }));
      await list.load();
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AdminListPage
      name="storage"
      intro={t("storage.description")}
      source={list}
      items={configs}
      onCreate={() => setDialog({ kind: "create" })}
      dialogs={
        <>
          {(dialog.kind === "create" || editing) && (
            <StorageConfigDialog editing={editing} onClose={close} onSaved={onSaved} />
          )}
          {dialog.kind === "test" && <StorageTestDialog config={dialog.config} onClose={close} />}
          <DeleteConfirmDialog
            target={dialog.kind === "delete" ? dialog.config : null}
            name="storage"
            vars={(c) => ({ name: c.name })}
            remove={async (c) => {
              await deleteStorageConfig(c.id);
              return t("storage.toast.deleted", { name: c.name });
            }}
            onClose={close}
            onDeleted={list.refresh}
          />
        </>
      }
    >
      {configs && (
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
    </AdminListPage>
  );
}
