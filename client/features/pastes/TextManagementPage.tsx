/**
 * Text management (`/admin/text-management`): search, page through, edit and delete shares,
 * one at a time or selected together, and clear the expired ones. Key users see only their
 * own shares (the server filters).
 */
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { errorText } from "../../api/errors.ts";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { toast } from "../../components/toast.ts";
import { DEFAULT_PASTE_LIST_LIMIT, SEARCH_MIN_LENGTH } from "../../../shared/constants.ts";
import {
  clearExpiredPastes,
  deletePastes,
  getPaste,
  listPastes,
  type PasteList,
  type PasteListItem,
  type PasteView,
} from "./pastes_api.ts";
import { PasteTable } from "./PasteTable.tsx";
import { Pagination } from "../../components/Pagination.tsx";
import { RetryAlert } from "../../components/RetryAlert.tsx";

const PasteEditDialog = lazy(() => import("./PasteEditDialog.tsx"));

type Confirm =
  | { kind: "delete"; items: PasteListItem[] }
  | { kind: "clearExpired" };

export default function TextManagementPage() {
  usePageTitle("pageTitle.textManagement");
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(DEFAULT_PASTE_LIST_LIMIT);
  const [searchInput, setSearchInput] = useState("");
  const [search, setSearch] = useState("");
  const [list, setList] = useState<PasteList | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<PasteView | null>(null);
  const [openingId, setOpeningId] = useState<string | null>(null);

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
    listPastes({ page, limit, search })
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

  const openEditor = async (item: PasteListItem) => {
    setOpeningId(item.id);
    try {
      setEditing(await getPaste(item.id));
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setOpeningId(null);
    }
  };

  const runConfirmed = async () => {
    if (!confirm) return;
    setBusy(true);
    try {
      if (confirm.kind === "delete") {
        const r = await deletePastes(confirm.items.map((i) => i.id));
        toast.success(
          r.skipped > 0
            ? t("texts.deletedSkipped", { deleted: r.deleted, skipped: r.skipped })
            : t("texts.deleted", { deleted: r.deleted }),
        );
        setSelected(new Set());
      } else {
        const r = await clearExpiredPastes();
        toast.success(t("texts.clearedExpired", { deleted: r.deleted }));
      }
      refresh();
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };

  const items = list?.items ?? [];
  const selectedItems = items.filter((i) => selected.has(i.id));
  const total = list?.total ?? 0;

  return (
    <section className="page texts-page" aria-labelledby="texts-title">
      <header className="page-header">
        <div>
          <h1 id="texts-title">{t("texts.title")}</h1>
          <p className="muted">{t("texts.intro")}</p>
        </div>
      </header>

      <div className="texts-toolbar">
        <div className="texts-search">
          <label htmlFor="texts-search">{t("texts.search")}</label>
          <input
            id="texts-search"
            className="input"
            type="search"
            value={searchInput}
            placeholder={t("texts.searchPlaceholder")}
            aria-describedby={searchTooShort ? "texts-search-hint" : undefined}
            onChange={(e) => setSearchInput(e.currentTarget.value)}
          />
          {searchTooShort && (
            <p id="texts-search-hint" className="field-hint">
              {t("texts.searchTooShort", { min: SEARCH_MIN_LENGTH })}
            </p>
          )}
        </div>
        <div className="texts-actions">
          <button
            type="button"
            className="btn btn-danger"
            disabled={selectedItems.length === 0}
            onClick={() => setConfirm({ kind: "delete", items: selectedItems })}
          >
            {t("texts.deleteSelected", { n: selectedItems.length })}
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => setConfirm({ kind: "clearExpired" })}
          >
            {t("texts.clearExpired")}
          </button>
          <button type="button" className="btn" onClick={refresh} disabled={loading}>
            {t("texts.refresh")}
          </button>
        </div>
      </div>

      {loadError && <RetryAlert message={loadError} onRetry={refresh} />}

      {list === null && loading ? <Spinner /> : (
        <div className="texts-list" aria-busy={loading}>
          {items.length === 0 && !loadError
            ? <p className="empty-state">{search ? t("texts.noMatches") : t("texts.empty")}</p>
            : (
              <PasteTable
                items={items}
                selected={selected}
                onSelect={setSelected}
                onEdit={openEditor}
                onDelete={(item) => setConfirm({ kind: "delete", items: [item] })}
                openingId={openingId}
              />
            )}
        </div>
      )}

      <Pagination
        pageSizes={[10, 20, 50, 100]}
        totalText={t("texts.pagination.total", { total: list?.total ?? 0 })}
        page={page}
        limit={limit}
        total={total}
        onPage={setPage}
        onLimit={(l) => {
          setLimit(l);
          setPage(1);
        }}
      />

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
      {editing && (
        <Suspense fallback={null}>
          <PasteEditDialog
            paste={editing}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              toast.success(t("paste.edit.saved"));
              refresh();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
