/**
 * Key management (spec §2, admin only): the table of API keys with create, edit and delete.
 * A new key is shown in full exactly once, right after creation.
 */
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { type ApiKeyView, deleteApiKey, listApiKeys } from "./keys_api.ts";
import { KeyFormDialog } from "./KeyFormDialog.tsx";
import { CreatedKeyDialog } from "./CreatedKeyDialog.tsx";
import { formatDateTime, grantedPermissions } from "./format.ts";
import { PERMISSION_KEYS } from "../../../shared/permissions.ts";
import { RetryAlert } from "../../components/RetryAlert.tsx";

type Dialog =
  | { kind: "none" }
  | { kind: "create" }
  | { kind: "edit"; key: ApiKeyView }
  | { kind: "delete"; key: ApiKeyView }
  | { kind: "created"; apiKey: string };

function PermissionBadges({ keyView }: { keyView: ApiKeyView }) {
  const { t } = useTranslation();
  const granted = grantedPermissions(keyView.permissions);
  if (granted.length === PERMISSION_KEYS.length) {
    return <span className="badge badge-primary">{t("keys.permissions.all")}</span>;
  }
  if (granted.length === 0) return <span className="muted">{t("keys.permissions.none")}</span>;
  return (
    <ul className="badge-list">
      {granted.map((k) => <li key={k} className="badge">{t(`keys.permissions.${k}`)}</li>)}
    </ul>
  );
}

/** /admin/key-management: the key table and its dialogs. */
export default function KeyManagementPage() {
  const { t, i18n } = useTranslation();
  usePageTitle("pageTitle.keyManagement");
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<Dialog>({ kind: "none" });
  const [deleting, setDeleting] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    setLoadError(null);
    try {
      setKeys(await listApiKeys());
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

  const onSaved = (saved: ApiKeyView & { key?: string }) => {
    const created = dialog.kind === "create";
    toast.success(t(created ? "keys.toast.created" : "keys.toast.updated"));
    setDialog(created && saved.key ? { kind: "created", apiKey: saved.key } : { kind: "none" });
    void load();
  };

  const onDelete = async () => {
    if (dialog.kind !== "delete") return;
    setDeleting(true);
    try {
      await deleteApiKey(dialog.key.id);
      toast.success(t("keys.delete.deleted"));
      setDialog({ kind: "none" });
      void load();
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setDeleting(false);
    }
  };

  const date = (iso: string | null, fallback: string) =>
    formatDateTime(iso, i18n.language, fallback);

  return (
    <section className="page keys-page">
      <header className="page-header">
        <div>
          <h1>{t("keys.title")}</h1>
          <p className="muted">{t("keys.description")}</p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn" onClick={() => void load()} disabled={loading}>
            {t("keys.refresh")}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setDialog({ kind: "create" })}
          >
            {t("keys.create")}
          </button>
        </div>
      </header>

      {loadError && <RetryAlert message={loadError} onRetry={() => void load()} />}

      {keys === null && !loadError && <Spinner />}

      {keys !== null && keys.length === 0 && <p className="empty-state">{t("keys.empty")}</p>}

      {keys !== null && keys.length > 0 && (
        <div
          className="table-wrap table-wrap-cards"
          role="region"
          aria-label={t("keys.table.caption")}
          tabIndex={0}
        >
          <table className="table">
            <caption className="sr-only">{t("keys.table.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("keys.table.name")}</th>
                <th scope="col">{t("keys.table.key")}</th>
                <th scope="col">{t("keys.table.permissions")}</th>
                <th scope="col">{t("keys.table.basePath")}</th>
                <th scope="col">{t("keys.table.expires")}</th>
                <th scope="col">{t("keys.table.lastUsed")}</th>
                <th scope="col">{t("keys.table.status")}</th>
                <th scope="col" className="cell-actions">
                  <span className="sr-only">{t("keys.table.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} className={k.is_expired ? "row-muted" : undefined}>
                  <th scope="row" className="cell-name">{k.name}</th>
                  <td data-label={t("keys.table.key")}>
                    <code className="key-masked">{k.key_masked}</code>
                  </td>
                  <td data-label={t("keys.table.permissions")}>
                    <PermissionBadges keyView={k} />
                  </td>
                  <td data-label={t("keys.table.basePath")}>
                    <code>{k.basic_path}</code>
                  </td>
                  <td className="cell-nowrap" data-label={t("keys.table.expires")}>
                    {date(k.expires_at, t("keys.never"))}
                  </td>
                  <td className="cell-nowrap" data-label={t("keys.table.lastUsed")}>
                    {date(k.last_used, t("keys.neverUsed"))}
                  </td>
                  <td data-label={t("keys.table.status")}>
                    <span className="badge-list">
                      {k.is_expired
                        ? <span className="badge badge-danger">{t("keys.status.expired")}</span>
                        : <span className="badge badge-success">{t("keys.status.active")}</span>}
                      {k.is_guest && <span className="badge">{t("keys.status.guest")}</span>}
                    </span>
                  </td>
                  <td className="cell-actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={t("keys.editKey", { name: k.name })}
                      onClick={() => setDialog({ kind: "edit", key: k })}
                    >
                      {t("common.edit")}
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-danger-outline"
                      aria-label={t("keys.deleteKey", { name: k.name })}
                      onClick={() => setDialog({ kind: "delete", key: k })}
                    >
                      {t("common.delete")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {keys !== null && keys.length > 0 && (
        <p className="muted table-footnote">{t("keys.count", { total: keys.length })}</p>
      )}

      {(dialog.kind === "create" || dialog.kind === "edit") && (
        <KeyFormDialog
          editing={dialog.kind === "edit" ? dialog.key : null}
          onClose={close}
          onSaved={onSaved}
        />
      )}
      {dialog.kind === "created" && <CreatedKeyDialog apiKey={dialog.apiKey} onClose={close} />}
      <ConfirmDialog
        open={dialog.kind === "delete"}
        title={t("keys.delete.title")}
        message={dialog.kind === "delete"
          ? t("keys.delete.confirm", { name: dialog.key.name })
          : ""}
        confirmLabel={t("keys.delete.submit")}
        danger
        busy={deleting}
        onConfirm={() => void onDelete()}
        onCancel={close}
      />
    </section>
  );
}
