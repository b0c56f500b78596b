/**
 * File management (`/admin/file-management`): search, page through (50 a page by default),
 * edit and delete file shares, one at a time or selected together, choosing whether the stored
 * files go too, or clear every expired and used-up share. The total counts the files and their
 * size. Key users see only their own files (the server filters).
 */
import { lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { toast } from "../../components/toast.ts";
import { AdminListPage } from "../../components/AdminListPage.tsx";
import {
  type PageQuery,
  useBusyAction,
  usePagedList,
  useRowEditor,
} from "../../components/use_admin_list.ts";
import { DEFAULT_FILE_LIST_LIMIT } from "../../../shared/constants.ts";
import {
  clearExpiredFiles,
  deleteFiles,
  type DeleteMode,
  type FileList,
  type FileView,
  listFiles,
} from "./files_api.ts";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { formatBytes } from "../../lib/format.ts";
import { FileTable } from "./FileTable.tsx";
import { BatchDeleteDialog } from "./BatchDeleteDialog.tsx";
// Lazy modules only: see FilePage.tsx on why the file styles are imported here.

const FileEditDialog = lazy(() => import("./FileEditDialog.tsx"));

/** A page of files: the endpoint counts by offset. */
const listFilePage = ({ page, limit, search }: PageQuery) =>
  listFiles({ limit, offset: (page - 1) * limit, search });

export default function FileManagementPage() {
  usePageTitle("pageTitle.fileManagement");
  const { t } = useTranslation();
  const list = usePagedList(listFilePage, DEFAULT_FILE_LIST_LIMIT, [20, 50, 100, 200]);
  const { refresh } = list;
  const [deleting, setDeleting] = useState<FileView[]>([]);
  const [clearing, setClearing] = useState(false);
  const { busy, run } = useBusyAction();
  const totalSize = (list.loaded as FileList | null)?.total_size ?? 0;

  const runClear = () =>
    run(async () => {
      const r = await clearExpiredFiles();
      toast.success(t("files.clearedExpired", { count: r.deleted }));
      refresh();
    }, () => setClearing(false));
  const editor = useRowEditor<FileView>(t("file.edit.saved"), refresh);

  const runDelete = (mode: DeleteMode) =>
    run(async () => {
      const r = await deleteFiles(deleting.map((i) => i.id), mode);
      if (r.failed.length > 0) {
        toast.error(t("files.delete.partial", { deleted: r.deleted, failed: r.failed.length }));
      } else toast.success(t("files.delete.done", { n: r.deleted }));
      list.setSelected(new Set());
      refresh();
    }, () => setDeleting([]));

  return (
    <AdminListPage
      name="files"
      paged={{
        list,
        onDeleteSelected: () => setDeleting(list.selectedItems),
        batch: (
          <button type="button" className="btn" onClick={() => setClearing(true)}>
            {t("files.clearExpired")}
          </button>
        ),
        totalText: t("files.pagination.totalSize", {
          count: list.total,
          size: formatBytes(totalSize),
        }),
      }}
      dialogs={
        <>
          <ConfirmDialog
            open={clearing}
            title={t("files.confirmClearTitle")}
            message={t("files.confirmClear")}
            confirmLabel={t("files.clearExpired")}
            danger
            busy={busy}
            onConfirm={() => void runClear()}
            onCancel={() => setClearing(false)}
          />
          <BatchDeleteDialog
            key={deleting.length > 0 ? "open" : "closed"}
            items={deleting}
            busy={busy}
            onConfirm={(mode) => void runDelete(mode)}
            onCancel={() => setDeleting([])}
          />
          {editor.editing && (
            <FileEditDialog file={editor.editing} onClose={editor.close} onSaved={editor.saved} />
          )}
        </>
      }
    >
      <FileTable
        selection={list.selection}
        onEdit={editor.open}
        onDelete={(item) => setDeleting([item])}
      />
    </AdminListPage>
  );
}
