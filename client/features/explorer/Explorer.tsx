/**
 * One folder of the mount explorer: toolbar, panels (gallery settings, basket, tasks), uploads,
 * the batch bar, the folder in the chosen view (paged to the end by scrolling or the button),
 * or search results, plus the context menu, dialogs and the `?preview=` preview.
 */
import { type DragEvent, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { useAuth } from "../../auth/auth_store.ts";
import { paths } from "../../../shared/app_paths.ts";
import { hasPermission, Permission } from "../../../shared/permissions.ts";
import { previewTypeOf } from "../../../shared/preview_types.ts";
import { usePreviewLists } from "../../app/site_config.ts";
import type { FsEntry } from "./explorer_api.ts";
import { explorerHref, parentOf } from "./explorer_paths.ts";
import { useFolder } from "./use_folder.ts";
import { useUploads } from "./use_uploads.ts";
import { useTasks } from "./use_tasks.ts";
import { useBasket } from "./basket_store.ts";
import { usePreviewEntry } from "./use_preview_entry.ts";
import { useEntryCommands } from "./use_entry_commands.ts";
import {
  GALLERY_KEY,
  parseGallery,
  parseView,
  sortEntries,
  useStoredValue,
  VIEW_KEY,
} from "./view_settings.ts";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { ExplorerToolbar, type PanelId } from "./ExplorerToolbar.tsx";
import { GallerySettingsPanel } from "./GallerySettingsPanel.tsx";
import { BasketPanel } from "./BasketPanel.tsx";
import { TaskPanel } from "./TaskPanel.tsx";
import { UploadList } from "./UploadList.tsx";
import { SelectionBar } from "./SelectionBar.tsx";
import { type EntryHandlers, GalleryView, GridView, ListView } from "./EntryViews.tsx";
import { ContextMenu } from "./ContextMenu.tsx";
import { entryMenu } from "./entry_menu.ts";
import { ExplorerDialogs, useExplorerDialogs } from "./ExplorerDialogs.tsx";
import { PreviewDialog } from "./PreviewDialog.tsx";
import { useAskedUploads } from "./use_asked_uploads.tsx";
import { SearchForm, type SearchQuery, SearchResults } from "./SearchPanel.tsx";
import { RetryAlert } from "../../components/RetryAlert.tsx";
import { ApiError } from "../../api/client.ts";
import { OfflineCopyNote } from "../../offline/OfflineCopyNote.tsx";

export function Explorer({ path }: { path: string }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const lists = usePreviewLists();
  const folder = useFolder(path);
  const [view, setView] = useStoredValue(VIEW_KEY, parseView, String);
  const [gallery, setGallery] = useStoredValue(GALLERY_KEY, parseGallery);
  const [panel, setPanel] = useState<PanelId | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [menu, setMenu] = useState<{ entry: FsEntry; x: number; y: number } | null>(null);
  const [search, setSearch] = useState<SearchQuery | null>(null);
  const [dragging, setDragging] = useState(false);
  const dialogs = useExplorerDialogs();
  const basket = useBasket();
  const can = (bit: number) => hasPermission(auth.permissions, bit);
  // A key that may upload but not view cannot list a mount's folder (403): it still uploads
  // there, as a drop box.
  const uploadOnly = !can(Permission.MOUNT_VIEW) && folder.status === "failed" &&
    folder.error instanceof ApiError && folder.error.status === 403;
  const canWrite = can(Permission.MOUNT_UPLOAD) &&
    ((folder.status === "ready" && !folder.isVirtual) || uploadOnly);
  // While a folder inside a mount loads, its write buttons (disabled) and the search scope are
  // already there, so the toolbar does not grow (and push the listing down) when it arrives.
  const writeShown = canWrite ||
    (can(Permission.MOUNT_UPLOAD) && folder.status === "loading" && path !== "/");

  const uploads = useUploads((entry) => folder.upsert([entry]));
  const { upload, conflictDialog } = useAskedUploads(uploads);
  const tasks = useTasks({
    watch: panel === "tasks",
    onFinished: (task) => {
      toast.info(
        t(`explorer.tasks.finished.${task.status}`, {
          type: t(`explorer.tasks.type.${task.type}`),
        }),
      );
      void folder.reload(true);
    },
  });
  const activeTasks =
    (tasks.tasks ?? []).filter((x) => x.status === "pending" || x.status === "running").length;

  useEffect(() => setSelected(new Set()), [path]);

  const entries = useMemo(() => {
    const sorted = sortEntries(folder.items, gallery.sortBy, gallery.sortDesc);
    if (view !== "gallery" || !gallery.imagesOnly) return sorted;
    return sorted.filter((e) =>
      e.type === "directory" || previewTypeOf(e.name, e.mimetype ?? "", lists) === "image"
    );
  }, [folder.items, gallery, view, lists]);

  // Infinite scroll: the sentinel below the listing loads the next page when it shows.
  const sentinel = useRef<HTMLDivElement>(null);
  const { cursor, loadMore } = folder;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !cursor || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((list) => {
      if (list.some((x) => x.isIntersecting)) void loadMore();
    }, { rootMargin: "400px" });
    io.observe(el);
    return () => io.disconnect();
  }, [cursor, loadMore, folder.items.length]);

  const preview = usePreviewEntry(path, folder.items, folder.status === "loading");
  const files = entries.filter((e) => e.type === "file");
  const at = preview.entry ? files.findIndex((f) => f.path === preview.entry!.path) : -1;

  const hrefOf = (e: FsEntry) =>
    e.type === "directory" ? explorerHref(e.path) : explorerHref(path, e.name);
  const handlers: EntryHandlers = {
    hrefOf,
    onMenu: (entry, x, y) => setMenu({ entry, x, y }),
    isSelected: (e) => selected.has(e.path),
    onSelect: (e, on) =>
      setSelected((s) => {
        const next = new Set(s);
        if (on) next.add(e.path);
        else next.delete(e.path);
        return next;
      }),
    selectable: folder.status === "ready" && !folder.isVirtual,
  };
  const selectedEntries = entries.filter((e) => selected.has(e.path));

  const commands = useEntryCommands(hrefOf, dialogs.open);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const dropped = [...(e.dataTransfer?.files ?? [])];
    if (canWrite && dropped.length) void upload(dropped, path);
  };

  const body = () => {
    if (folder.status === "loading") return <Spinner />;
    if (uploadOnly && canWrite) {
      return (
        <p className="empty-state">
          {t("explorer.uploadOnly")}{" "}
          {path !== "/" && <Link to={explorerHref(parentOf(path))}>{t("explorer.up")}</Link>}
        </p>
      );
    }
    if (folder.status === "failed") {
      return (
        <RetryAlert message={errorText(t, folder.error)} onRetry={() => void folder.reload()}>
          {path !== "/" && <Link to={explorerHref(parentOf(path))}>{t("explorer.up")}</Link>}
        </RetryAlert>
      );
    }
    if (entries.length === 0) {
      if (path === "/" && auth.authType === "admin") {
        return (
          <p className="empty-state">
            {t("explorer.noMounts")}{" "}
            <Link to={paths.mountManagement}>{t("explorer.manageMounts")}</Link>
          </p>
        );
      }
      return (
        <p className="empty-state">{canWrite ? t("explorer.emptyDrop") : t("explorer.empty")}</p>
      );
    }
    if (view === "grid") return <GridView entries={entries} {...handlers} />;
    if (view === "gallery") {
      return <GalleryView entries={entries} settings={gallery} {...handlers} />;
    }
    return <ListView entries={entries} {...handlers} />;
  };

  return (
    <>
      <Breadcrumbs path={path} />
      <ExplorerToolbar
        canWrite={canWrite}
        writeShown={writeShown}
        view={view}
        onView={setView}
        onUpload={(list) => void upload(list, path)}
        onMkdir={() => dialogs.open({ kind: "mkdir" })}
        onRefresh={() => void folder.reload(true)}
        refreshing={folder.status === "loading"}
        panel={panel}
        onPanel={setPanel}
        basketCount={basket.length}
        activeTasks={activeTasks}
      />
      {can(Permission.MOUNT_VIEW) && (
        <SearchForm
          inMount={folder.status === "loading"
            ? path !== "/"
            : !folder.isVirtual && folder.mountId !== null}
          onSearch={setSearch}
        />
      )}
      {panel === "settings" && <GallerySettingsPanel settings={gallery} onChange={setGallery} />}
      {panel === "basket" && <BasketPanel />}
      {panel === "tasks" && (
        <TaskPanel tasks={tasks.tasks} error={tasks.error} onChanged={tasks.refresh} />
      )}
      <UploadList
        items={uploads.items}
        onCancel={uploads.cancel}
        onRetry={uploads.retry}
        onDismiss={uploads.dismiss}
        onClear={uploads.clearFinished}
      />
      {folder.offlineSavedAt !== null && <OfflineCopyNote savedAt={folder.offlineSavedAt} />}
      {search
        ? (
          <SearchResults
            key={`${search.scope}:${search.q}:${path}`}
            query={search}
            path={path}
            mountId={folder.mountId}
            onClose={() => setSearch(null)}
          />
        )
        : (
          <div
            className={`explorer-content${dragging ? " is-dragging" : ""}`}
            onDragOver={(e) => {
              if (!canWrite || !e.dataTransfer?.types.includes("Files")) return;
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <SelectionBar
              count={selectedEntries.length}
              total={entries.length}
              canCopy={can(Permission.MOUNT_COPY)}
              canDelete={can(Permission.MOUNT_DELETE)}
              onBasket={() => commands.basket(selectedEntries)}
              onCopy={() => commands.copy(selectedEntries)}
              onDelete={() => commands.remove(selectedEntries)}
              onSelectAll={() => setSelected(new Set(entries.map((e) => e.path)))}
              onClear={() => setSelected(new Set())}
            />
            {body()}
            {folder.status === "ready" && folder.cursor && (
              <div ref={sentinel} className="explorer-more">
                <button
                  type="button"
                  className="btn"
                  onClick={() =>
                    void folder.loadMore()}
                  disabled={folder.loadingMore}
                  aria-busy={folder.loadingMore || undefined}
                >
                  {folder.loadingMore ? t("common.loading") : t("explorer.loadMore")}
                </button>
              </div>
            )}
            {folder.status === "ready" && (
              <p className="muted table-footnote" aria-live="polite">
                {folder.cursor
                  ? t("explorer.countMore", { n: folder.items.length })
                  : t("explorer.count", { n: folder.items.length })}
              </p>
            )}
          </div>
        )}
      {menu && (
        <ContextMenu
          x={menu.x}
          y={menu.y}
          label={t("explorer.item.actions", { name: menu.entry.name })}
          items={entryMenu(t, menu.entry, auth.permissions, folder.isVirtual, commands)}
          onClose={() => setMenu(null)}
        />
      )}
      {conflictDialog}
      <ExplorerDialogs
        dialog={dialogs.dialog}
        path={path}
        onClose={dialogs.close}
        events={{
          onAdded: folder.upsert,
          onRemoved: (gone) => {
            folder.drop(gone);
            setSelected((s) => new Set([...s].filter((p) => !gone.includes(p))));
          },
          onCopyStarted: (id, task) => {
            tasks.track(id, task);
            setSelected(new Set());
            setPanel("tasks");
            toast.success(t("explorer.copy.started"));
          },
        }}
      />
      {preview.entry && (
        <PreviewDialog
          entry={preview.entry}
          prev={at > 0 ? files[at - 1] : null}
          next={at >= 0 && at < files.length - 1 ? files[at + 1] : null}
          canEdit={can(Permission.MOUNT_UPLOAD)}
          onNavigate={preview.open}
          onClose={preview.close}
          onSaved={(e) => {
            folder.upsert([e]);
            preview.setEntry(e);
          }}
        />
      )}
    </>
  );
}
