/**
 * Mount management (`/admin/mount-management`, docs/PRODUCT.md §2.1, §6.3). The admin sees every
 * mount and can create, edit, enable or disable and delete them; a key user with a mount bit sees
 * the active mounts inside their base path, read-only.
 */
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { usePageTitle } from "../../app/use_page_title.ts";
import { toast } from "../../components/toast.ts";
import { useAuth } from "../../auth/auth_store.ts";
import { listStorageConfigs, type StorageConfigView } from "../storage/storage_api.ts";
import { deleteMount, listMounts, type MountView, updateMount } from "./mounts_api.ts";
import { MountFormDialog } from "./MountFormDialog.tsx";
import { explorerHref } from "../explorer/explorer_paths.ts";
import { AdminListPage } from "../../components/AdminListPage.tsx";
import { RowButtons, TableFrame } from "../../components/ListTable.tsx";
import { useItemDialogs, useLoadedList, useRowAction } from "../../components/use_admin_list.ts";

export default function MountManagementPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.mountManagement");
  const isAdmin = useAuth().authType === "admin";
  const fetchAll = useCallback(async () => {
    const [mounts, configs] = await Promise.all([
      listMounts(),
      isAdmin ? listStorageConfigs() : Promise.resolve([] as StorageConfigView[]),
    ]);
    return { mounts, configs };
  }, [isAdmin]);
  const list = useLoadedList(fetchAll);
  const { setData } = list;
  const mounts = list.data?.mounts ?? null;
  const configs = list.data?.configs ?? [];
  const dialogs = useItemDialogs<MountView>();
  const rowAction = useRowAction();

  const configName = (id: string) => configs.find((c) => c.id === id)?.name ?? id;

  const onSaved = (saved: MountView) => {
    toast.success(
      t(dialogs.creating ? "mounts.toast.created" : "mounts.toast.updated", {
        name: saved.name,
      }),
    );
    dialogs.close();
    list.refresh();
  };

  /** Enables or disables a mount; the switch moves at once and moves back if saving fails. */
  const toggle = (m: MountView) => {
    const replace = (next: MountView) =>
      setData((d) => d && { ...d, mounts: d.mounts.map((x) => (x.id === next.id ? next : x)) });
    replace({ ...m, is_active: !m.is_active });
    void rowAction.run(m.id, async () => {
      const saved = await updateMount(m.id, { is_active: !m.is_active });
      replace(saved);
      return t(saved.is_active ? "mounts.toast.enabled" : "mounts.toast.disabled", {
        name: m.name,
      });
    }, () => replace(m));
  };

  return (
    <AdminListPage
      name="mounts"
      intro={isAdmin ? t("mounts.description") : t("mounts.readOnly")}
      source={list}
      items={mounts}
      empty={isAdmin ? undefined : t("mounts.emptyKey")}
      footnote={t("mounts.count", { total: mounts?.length ?? 0 })}
      onCreate={isAdmin ? dialogs.create : undefined}
      deletion={{
        dialogs,
        vars: (m) => ({ name: m.name, path: m.mount_path }),
        remove: (m) => deleteMount(m.id).then(() => t("mounts.toast.deleted", { name: m.name })),
      }}
      dialogs={
        <>
          {isAdmin && dialogs.formOpen && (
            <MountFormDialog
              editing={dialogs.editing}
              configs={configs}
              onClose={dialogs.close}
              onSaved={onSaved}
            />
          )}
        </>
      }
    >
      {mounts && (
        <TableFrame
          caption={t("mounts.table.caption")}
          name="mounts"
          cards
          columns={["name", "path", "storage", "cacheTtl", "webdav", "status"].map((c) =>
            t(`mounts.table.${c}`)
          )}
          actions={t("mounts.table.actions")}
        >
          {mounts.map((m) => (
            <tr key={m.id} className={m.is_active ? undefined : "row-muted"}>
              <th scope="row">
                <span className="mount-name">{m.name}</span>
                {m.remark && <span className="muted mount-remark">{m.remark}</span>}
              </th>
              <td data-label={t("mounts.table.path")}>
                <code>{m.mount_path}</code>
              </td>
              <td data-label={t("mounts.table.storage")}>
                <span className="badge">{t(`mounts.storageType.${m.storage_type}`)}</span>
                {isAdmin && <span className="mount-config">{configName(m.storage_config_id)}</span>}
              </td>
              <td className="cell-nowrap" data-label={t("mounts.table.cacheTtl")}>
                {m.cache_ttl === 0
                  ? t("mounts.noCache")
                  : t("mounts.seconds", { value: m.cache_ttl })}
              </td>
              <td data-label={t("mounts.table.webdav")}>
                <span className="badge-list">
                  <span className="badge">{t(`mounts.webdavPolicy.${m.webdav_policy}`)}</span>
                  {m.web_proxy && <span className="badge">{t("mounts.badge.proxy")}</span>}
                  {m.enable_sign && <span className="badge">{t("mounts.badge.signed")}</span>}
                </span>
              </td>
              <td data-label={t("mounts.table.status")}>
                {isAdmin
                  ? (
                    <label className="check mount-switch">
                      <input
                        type="checkbox"
                        role="switch"
                        checked={m.is_active}
                        disabled={rowAction.busyId === m.id}
                        aria-label={t("mounts.toggle", { name: m.name })}
                        onChange={() => toggle(m)}
                      />
                      <span aria-hidden="true">
                        {m.is_active ? t("mounts.status.active") : t("mounts.status.disabled")}
                      </span>
                    </label>
                  )
                  : (
                    <span className={`badge ${m.is_active ? "badge-success" : ""}`}>
                      {m.is_active ? t("mounts.status.active") : t("mounts.status.disabled")}
                    </span>
                  )}
              </td>
              <td className="cell-actions">
                {m.is_active && (
                  <Link
                    className="btn btn-small"
                    to={explorerHref(m.mount_path)}
                    aria-label={t("mounts.openMount", { name: m.name })}
                  >
                    {t("mounts.open")}
                  </Link>
                )}
                {isAdmin && (
                  <>
                    <RowButtons
                      editLabel={t("mounts.editMount", { name: m.name })}
                      deleteLabel={t("mounts.deleteMount", { name: m.name })}
                      onEdit={() => dialogs.edit(m)}
                      onDelete={() => dialogs.confirmDelete(m)}
                    />
                  </>
                )}
              </td>
            </tr>
          ))}
        </TableFrame>
      )}
    </AdminListPage>
  );
}
