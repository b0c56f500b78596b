/**
 * S3 storage config (`/admin/storage-config`, admin only): the configs as cards with usage,
 * and create, edit, test, set-default and delete (docs/PRODUCT.md §2.1, §7.4).
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
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
import { useItemDialogs, useLoadedList, useRowAction } from "../../components/use_admin_list.ts";

export default function StorageConfigPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.storageConfig");
  const list = useLoadedList(listStorageConfigs);
  const configs = list.data;
  const dialogs = useItemDialogs<StorageConfigView>();
  const [testing, setTesting] = useState<StorageConfigView | null>(null);
  const rowAction = useRowAction();

  const onSaved = () => {
    toast.success(t(dialogs.creating ? "storage.toast.created" : "storage.toast.updated"));
    dialogs.close();
    list.refresh();
  };

  const setDefault = (c: StorageConfigView) =>
    void rowAction.run(c.id, async () => {
      await setDefaultStorageConfig(c.id);
      await list.load();
      return t("storage.toast.defaultSet", { name: c.name });
    });

  return (
    <AdminListPage
      name="storage"
      intro={t("storage.description")}
      source={list}
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
              busy={rowAction.busyId !== null}
              onEdit={() => dialogs.edit(c)}
              onTest={() => setTesting(c)}
              onSetDefault={() => setDefault(c)}
              onDelete={() => dialogs.confirmDelete(c)}
            />
          ))}
        </div>
      )}
    </AdminListPage>
  );
}
