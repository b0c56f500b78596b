/**
 * Key management (docs/PRODUCT.md §2.1, admin only): the table of API keys with create, edit and
 * delete. A new key is shown in full exactly once, right after creation.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { toast } from "../../components/toast.ts";
import { type ApiKeyView, deleteApiKey, listApiKeys } from "./keys_api.ts";
import { KeyFormDialog } from "./KeyFormDialog.tsx";
import { CreatedKeyDialog } from "./CreatedKeyDialog.tsx";
import { grantedPermissions } from "./format.ts";
import { formatDateParts } from "../../lib/format.ts";
import { PERMISSION_KEYS } from "../../../shared/permissions.ts";
import { AdminListPage } from "../../components/AdminListPage.tsx";
import { RowButtons, TableFrame } from "../../components/ListTable.tsx";
import { useItemDialogs, useLoadedList } from "../../components/use_admin_list.ts";

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
  const list = useLoadedList(listApiKeys);
  const keys = list.data;
  const dialogs = useItemDialogs<ApiKeyView>();
  /** The new key, shown in full once. */
  const [createdKey, setCreatedKey] = useState<
    { key: string; name: string; canShareFiles: boolean } | null
  >(null);

  const onSaved = (saved: ApiKeyView & { key?: string }) => {
    const created = dialogs.creating;
    toast.success(t(created ? "keys.toast.created" : "keys.toast.updated"));
    dialogs.close();
    if (created && saved.key) {
      setCreatedKey({ key: saved.key, name: saved.name, canShareFiles: saved.permissions.file });
    }
    list.refresh();
  };

  /** A date over at most two lines (date, then time), so the table fits 1280 px screens. */
  const date = (iso: string | null, fallback: string) => {
    const parts = formatDateParts(iso, i18n.language);
    if (!parts || !iso) return fallback;
    return (
      <time dateTime={iso}>
        <span className="cell-nowrap">{parts[0]}</span>{" "}
        <span className="cell-nowrap">{parts[1]}</span>
      </time>
    );
  };

  return (
    <AdminListPage
      name="keys"
      intro={t("keys.description")}
      source={list}
      footnote={t("keys.count", { total: keys?.length ?? 0 })}
      onCreate={dialogs.create}
      deletion={{
        dialogs,
        vars: (k) => ({ name: k.name }),
        remove: (k) => deleteApiKey(k.id).then(() => t("keys.delete.deleted")),
        keepOpenOnError: true,
      }}
      dialogs={
        <>
          {dialogs.formOpen && (
            <KeyFormDialog editing={dialogs.editing} onClose={dialogs.close} onSaved={onSaved} />
          )}
          {createdKey && (
            <CreatedKeyDialog
              apiKey={createdKey.key}
              name={createdKey.name}
              canShareFiles={createdKey.canShareFiles}
              onClose={() => setCreatedKey(null)}
            />
          )}
        </>
      }
    >
      {keys && (
        <TableFrame
          caption={t("keys.table.caption")}
          cards
          columns={["name", "key", "permissions", "basePath", "expires", "lastUsed", "status"].map((
            c,
          ) => t(`keys.table.${c}`))}
          actions={t("keys.table.actions")}
        >
          {keys.map((k) => (
            <tr key={k.id} className={k.is_expired ? "row-muted" : undefined}>
              <th scope="row" className="cell-name">{k.name}</th>
              <td data-label={t("keys.table.key")}>
                {/* The prefix with three dots says "masked" as well as eight, in less room. */}
                <code className="key-masked">{k.key_masked.replace(/•+$/, "•••")}</code>
              </td>
              <td data-label={t("keys.table.permissions")}>
                <PermissionBadges keyView={k} />
              </td>
              <td data-label={t("keys.table.basePath")}>
                <code>{k.basic_path}</code>
              </td>
              <td data-label={t("keys.table.expires")}>
                {date(k.expires_at, t("keys.never"))}
              </td>
              <td data-label={t("keys.table.lastUsed")}>
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
                <RowButtons
                  editLabel={t("keys.editKey", { name: k.name })}
                  deleteLabel={t("keys.deleteKey", { name: k.name })}
                  onEdit={() => dialogs.edit(k)}
                  onDelete={() => dialogs.confirmDelete(k)}
                />
              </td>
            </tr>
          ))}
        </TableFrame>
      )}
    </AdminListPage>
  );
}
