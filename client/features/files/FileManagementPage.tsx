/**
 * File management (`/admin/file-management`): search, page through (50 a page by default),
 * edit and delete file shares, one at a time or selected together, choosing whether the stored
 * files go too. Key users see only their own files (the server filters).
 */
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { toast } from "../../components/toast.ts";
import { DEFAULT_FILE_LIST_LIMIT, SEARCH_MIN_LENGTH } from "../../../shared/constants.ts";
import {
  deleteFiles,
  type DeleteMode,
  type FileList,
  type FileView,
  listFiles,
} from "./files_api.ts";
import { FileTable } from "./FileTable.tsx";
import { Pagination } from "../../components/Pagination.tsx";
import { BatchDeleteDialog } from "./BatchDeleteDialog.tsx";
// Lazy modules only: see FilePage.tsx on why the file styles are imported here.

const FileEditDialog = lazy(() => import("./FileEditDialog.tsx"));

export default function FileManagementPage() {
  usePageTitle("pageTitle.fileManagement");
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(DEFAULT_FILE_LIST_LIMIT);
  const [searchInput, setSearchInput] = useState("");
  const [search, setSearch] = useState("");
  const [list, setList] = useState<FileList | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState<FileView[]>([]);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<FileView | null>(null);

  // Search after a pause, and only with enough characters (spec §5).
  const trimmed = searchInput.trim();
  const searchTooShort = trimmed.length > 0 && trimmed.length < SEARCH_MIN_LENGTH;
  useEffect(() => {
    if (searchTooShort || trimmed === search) return;
    const timer = setTimeout(() => {
      setSearch(trimmed);
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [trimmed, searchTooShort, search]);

  useEffect(() => {
    let alive = true;
    setLoading(true);
    listFiles({ limit, offset: (page - 1) * limit, search })
      .then((data) => {
        if (!alive) return;
        const pages = Math.max(1, Math.ceil(data.total / limit));
        if (data.items.length === 0 && page > pages) {
          setPage(pages);
          return;
        }
        setList(data);
        setLoadError(null);
        setSelected((sel) => new Set(data.items.filter((i) => sel.has(i.id)).map((i) => i.id)));
      })
      .catch((err) => alive && setLoadError(errorText(t, err)))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [page, limit, search, reload, t]);

  const refresh = useCallback(() => setReload((n) => n + 1), []);

  const runDelete = async (mode: DeleteMode) => {
    setBusy(true);
    try {
      const r = await deleteFiles(deleting.map((i) => i.id), mode);
      if (r.failed.length > 0) {
        toast.error(t("files.delete.partial", { deleted: r.deleted, failed: r.failed.length }));
      } else toast.success(t("files.delete.done", { n: r.deleted }));
      setSelected(new Set());
      refresh();
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(false);
      setDeleting([]);
    }
  };

  const items = list?.items ?? [];
  const selectedItems = items.filter((i) => selected.has(i.id));

  return (
    <section className="page files-page" aria-labelledby="files-title">
      <header className="page-header">
        <div>
          <h1 id="files-title">{t("files.title")}</h1>
          <p className="muted">{t("files.intro")}</p>
        </div>
      </header>

      <div className="files-toolbar">
        <div className="field files-search">
          <label htmlFor="files-search">{t("files.search")}</label>
          <input
            id="files-search"
            className="input"
            type="search"
            value={searchInput}
            placeholder={t("files.searchPlaceholder")}
            aria-describedby={searchTooShort ? "files-search-hint" : undefined}
            onChange={(e) => setSearchInput(e.currentTarget.value)}
          />
          {searchTooShort && (
            <p id="files-search-hint" className="field-hint">
              {t("files.searchTooShort", { min: SEARCH_MIN_LENGTH })}
            </p>
          )}
        </div>
        <div className="page-actions files-actions">
          <button
            type="button"
            className="btn btn-danger"
            disabled={selectedItems.length === 0}
            onClick={() => setDeleting(selectedItems)}
          >
            {t("files.deleteSelected", { n: selectedItems.length })}
          </button>
          <button type="button" className="btn" onClick={refresh} disabled={loading}>
            {t("files.refresh")}
          </button>
        </div>
      </div>

      {loadError && (
        <div className="form-error" role="alert">
          {loadError}{" "}
          <button type="button" className="btn btn-small" onClick={refresh}>
            {t("common.retry")}
          </button>
        </div>
      )}

      {list === null && loading ? <Spinner /> : (
        <div className="files-list" aria-busy={loading}>
          {items.length === 0 && !loadError
            ? <p className="empty-state">{search ? t("files.noMatches") : t("files.empty")}</p>
            : (
              <FileTable
                items={items}
                selected={selected}
                onSelect={setSelected}
                onEdit={setEditing}
                onDelete={(item) => setDeleting([item])}
              />
            )}
        </div>
      )}

      <Pagination
        pageSizes={[20, 50, 100, 200]}
        totalText={t("files.pagination.total", { total: list?.total ?? 0 })}
        page={page}
        limit={limit}
        total={list?.total ?? 0}
        onPage={setPage}
        onLimit={(l) => {
          setLimit(l);
          setPage(1);
        }}
      />

      <BatchDeleteDialog
        key={deleting.length > 0 ? "open" : "closed"}
        items={deleting}
        busy={busy}
        onConfirm={(mode) => void runDelete(mode)}
        onCancel={() => setDeleting([])}
      />
      {editing && (
        <Suspense fallback={null}>
          <FileEditDialog
            file={editing}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              toast.success(t("file.edit.saved"));
              refresh();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
