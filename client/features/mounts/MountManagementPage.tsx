/**
 * Mount management (`/admin/mount-management`, spec §2, §6). The admin sees every mount and
 * can create, edit, enable or disable and delete them; a key user with a mount bit sees the
 * active mounts inside their base path, read-only.
 */
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { useAuth } from "../../auth/auth_store.ts";
import { listStorageConfigs, type StorageConfigView } from "../storage/storage_api.ts";
import { deleteMount, listMounts, type MountView, updateMount } from "./mounts_api.ts";
import { MountFormDialog } from "./MountFormDialog.tsx";
import { explorerHref } from "../explorer/explorer_paths.ts";
import { RetryAlert } from "../../components/RetryAlert.tsx";

type Dialog =
  | { kind: "none" }
  | { kind: "create" }
  | { kind: "edit"; mount: MountView }
  | { kind: "delete"; mount: MountView };

export default function MountManagementPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.mountManagement");
  const isAdmin = useAuth().authType === "admin";
  const [mounts, setMounts] = useState<MountView[] | null>(null);
  const [configs, setConfigs] = useState<StorageConfigView[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<Dialog>({ kind: "none" });
  const [busyId, setBusyId] = useState<string | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    setLoadError(null);
    try {
      const [list, cfgs] = await Promise.all([
        listMounts(),
        isAdmin ? listStorageConfigs() : Promise.resolve([]),
      ]);
      setMounts(list);
      setConfigs(cfgs);
    } catch (err) {
      setLoadError(errorText(t, err));
    } finally {
      setLoading(false);
    }
  }, [t, isAdmin]);

  useEffect(() => {
    void load();
  }, [load]);

  const close = () => setDialog({ kind: "none" });
  const configName = (id: string) => configs.find((c) => c.id === id)?.name ?? id;

  const onSaved = (saved: MountView) => {
    toast.success(
      t(dialog.kind === "create" ? "mounts.toast.created" : "mounts.toast.updated", {
        name: saved.name,
      }),
    );
    close();
    void load();
  };

  /** Enables or disables a mount; the switch moves at once and moves back if saving fails. */
  const toggle = async (m: MountView) => {
    const replace = (next: MountView) =>
      setMounts((list) => list?.map((x) => (x.id === next.id ? next : x)) ?? null);
    setBusyId(m.id);
    replace({ ...m, is_active: !m.is_active });
    try {
      const saved = await updateMount(m.id, { is_active: !m.is_active });
      replace(saved);
      toast.success(
        t(saved.is_active ? "mounts.toast.enabled" : "mounts.toast.disabled", { name: m.name }),
      );
    } catch (err) {
      replace(m);
      toast.error(errorText(t, err));
    } finally {
      setBusyId(null);
    }
  };

  const onDelete = async () => {
    if (dialog.kind !== "delete") return;
    const m = dialog.mount;
    setBusyId(m.id);
    try {
      await deleteMount(m.id);
      toast.success(t("mounts.toast.deleted", { name: m.name }));
      close();
      void load();
    } catch (err) {
      toast.error(errorText(t, err));
      close();
    } finally {
      setBusyId(null);
    }
  };

  return (
    <section className="page mounts-page">
      <header className="page-header">
        <div>
          <h1>{t("mounts.title")}</h1>
          <p className="muted">{isAdmin ? t("mounts.description") : t("mounts.readOnly")}</p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn" onClick={() => void load()} disabled={loading}>
            {t("mounts.refresh")}
          </button>
          {isAdmin && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => setDialog({ kind: "create" })}
            >
              {t("mounts.create")}
            </button>
          )}
        </div>
      </header>

      {loadError && <RetryAlert message={loadError} onRetry={() => void load()} />}
      {mounts === null && !loadError && <Spinner />}
      {mounts !== null && mounts.length === 0 && (
        <p className="empty-state">{isAdmin ? t("mounts.empty") : t("mounts.emptyKey")}</p>
      )}
      {mounts !== null && mounts.length > 0 && (
        <div
          className="table-wrap table-wrap-cards"
          role="region"
          aria-label={t("mounts.table.caption")}
          tabIndex={0}
        >
          <table className="table mounts-table">
            <caption className="sr-only">{t("mounts.table.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("mounts.table.name")}</th>
                <th scope="col">{t("mounts.table.path")}</th>
                <th scope="col">{t("mounts.table.storage")}</th>
                <th scope="col">{t("mounts.table.cacheTtl")}</th>
                <th scope="col">{t("mounts.table.webdav")}</th>
                <th scope="col">{t("mounts.table.status")}</th>
                <th scope="col" className="cell-actions">
                  <span className="sr-only">{t("mounts.table.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
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
                    {isAdmin && (
                      <span className="mount-config">{configName(m.storage_config_id)}</span>
                    )}
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
                            disabled={busyId === m.id}
                            aria-label={t("mounts.toggle", { name: m.name })}
                            onChange={() => void toggle(m)}
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
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-label={t("mounts.editMount", { name: m.name })}
                          onClick={() => setDialog({ kind: "edit", mount: m })}
                        >
                          {t("common.edit")}
                        </button>
                        <button
                          type="button"
                          className="btn btn-small btn-danger-outline"
                          aria-label={t("mounts.deleteMount", { name: m.name })}
                          onClick={() => setDialog({ kind: "delete", mount: m })}
                        >
                          {t("common.delete")}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {mounts !== null && mounts.length > 0 && (
        <p className="muted table-footnote">{t("mounts.count", { total: mounts.length })}</p>
      )}

      {isAdmin && (dialog.kind === "create" || dialog.kind === "edit") && (
        <MountFormDialog
          editing={dialog.kind === "edit" ? dialog.mount : null}
          configs={configs}
          onClose={close}
          onSaved={onSaved}
        />
      )}
      <ConfirmDialog
        open={dialog.kind === "delete"}
        title={t("mounts.delete.title")}
        message={dialog.kind === "delete"
          ? t("mounts.delete.confirm", { name: dialog.mount.name, path: dialog.mount.mount_path })
          : ""}
        confirmLabel={t("mounts.delete.submit")}
        danger
        busy={busyId !== null}
        onConfirm={() => void onDelete()}
        onCancel={close}
      />
    </section>
  );
}
