/**
 * S3 storage config (`/admin/storage-config`, admin only): the configs as cards with usage,
 * and create, edit, test, set-default and delete (spec §2, §7 "S3 configs").
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
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
import { useItemDialogs, useLoadedList } from "../../components/use_admin_list.ts";

export default function StorageConfigPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.storageConfig");
  const list = useLoadedList(listStorageConfigs);
  const configs = list.data;
  const dialogs = useItemDialogs<StorageConfigView>();
  const [testing, setTesting] = useState<StorageConfigView | null>(null);
  const [busy, setBusy] = useState(false);

  const onSaved = () => {
    toast.success(t(dialogs.creating ? "storage.toast.created" : "storage.toast.updated"));
    dialogs.close();
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
      onCreate={dialogs.create}
      deletion={{
        dialogs,
        vars: (c) => ({ name: c.name }),
        remove: (c) =>
          deleteStorageConfig(c.id).then(() => t("storage.toast.deleted", { name: c.name })),
      }}
      dialogs={
        <>
          {dialogs.formOpen && (
            <StorageConfigDialog
              editing={dialogs.editing}
              onClose={dialogs.close}
              onSaved={onSaved}
            />
          )}
          {testing && <StorageTestDialog config={testing} onClose={() => setTesting(null)} />}
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
              onEdit={() => dialogs.edit(c)}
              onTest={() => setTesting(c)}
              onSetDefault={() => void setDefault(c)}
              onDelete={() => dialogs.confirmDelete(c)}
            />
          ))}
        </div>
      )}
    </AdminListPage>
  );
}
