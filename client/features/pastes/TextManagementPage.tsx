/**
 * Text management (`/admin/text-management`): search, page through, edit and delete shares,
 * one at a time or selected together, and clear the expired ones. Key users see only their
 * own shares (the server filters).
 */
import { lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { toast } from "../../components/toast.ts";
import { AdminListPage } from "../../components/AdminListPage.tsx";
import { useBusyAction, usePagedList, useRowEditor } from "../../components/use_admin_list.ts";
import { DEFAULT_PASTE_LIST_LIMIT } from "../../../shared/constants.ts";
import {
  clearExpiredPastes,
  deletePastes,
  getPaste,
  listPastes,
  type PasteListItem,
  type PasteView,
} from "./pastes_api.ts";
import { PasteTable } from "./PasteTable.tsx";

const PasteEditDialog = lazy(() => import("./PasteEditDialog.tsx"));

type Confirm =
  | { kind: "delete"; items: PasteListItem[] }
  | { kind: "clearExpired" };

export default function TextManagementPage() {
  usePageTitle("pageTitle.textManagement");
  const { t } = useTranslation();
  const list = usePagedList(listPastes, DEFAULT_PASTE_LIST_LIMIT, [10, 20, 50, 100]);
  const { refresh } = list;
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const { busy, run } = useBusyAction();
  const editor = useRowEditor<PasteView>(t("paste.edit.saved"), refresh);
  const [openingId, setOpeningId] = useState<string | null>(null);

  const openEditor = async (item: PasteListItem) => {
    setOpeningId(item.id);
    try {
      editor.open(await getPaste(item.id));
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setOpeningId(null);
    }
  };

  const runConfirmed = async () => {
    if (!confirm) return;
    await run(async () => {
      if (confirm.kind === "delete") {
        const r = await deletePastes(confirm.items.map((i) => i.id));
        toast.success(
          r.skipped > 0
            ? t("texts.deletedSkipped", { deleted: r.deleted, skipped: r.skipped })
            : t("texts.deleted", { deleted: r.deleted }),
        );
        list.setSelected(new Set());
      } else {
        const r = await clearExpiredPastes();
        toast.success(t("texts.clearedExpired", { deleted: r.deleted }));
      }
      refresh();
    }, () => setConfirm(null));
  };

  return (
    <AdminListPage
      name="texts"
      paged={{
        list,
        onDeleteSelected: () => setConfirm({ kind: "delete", items: list.selectedItems }),
        batch: (
          <button
            type="button"
            className="btn"
            onClick={() => setConfirm({ kind: "clearExpired" })}
          >
            {t("texts.clearExpired")}
          </button>
        ),
      }}
      dialogs={
        <>
          <ConfirmDialog
            open={confirm !== null}
            title={confirm?.kind === "clearExpired"
              ? t("texts.confirmClearTitle")
              : t("texts.confirmDeleteTitle")}
            message={confirm?.kind === "clearExpired"
              ? t("texts.confirmClear")
              : confirm?.items.length === 1
              ? t("texts.confirmDeleteOne", { slug: confirm.items[0].slug })
              : t("texts.confirmDeleteMany", { n: confirm?.items.length ?? 0 })}
            confirmLabel={confirm?.kind === "clearExpired"
              ? t("texts.clearExpired")
              : t("common.delete")}
            danger
            busy={busy}
            onConfirm={() => void runConfirmed()}
            onCancel={() => setConfirm(null)}
          />
          {editor.editing && (
            <PasteEditDialog paste={editor.editing} onClose={editor.close} onSaved={editor.saved} />
          )}
        </>
      }
    >
      <PasteTable
        selection={list.selection}
        onEdit={openEditor}
        onDelete={(item) => setConfirm({ kind: "delete", items: [item] })}
        openingId={openingId}
      />
    </AdminListPage>
  );
}
