/**
 * The three ways to show a folder (docs/PRODUCT.md §2.3): a list (table), a grid of cards, and a
 * gallery whose columns and spacing come from the gallery settings. Every entry is a link (folders
 * open, files open their preview), has a checkbox for batch selection, and opens the context menu
 * by right click, long-press on touch, its actions button, or Shift+F10.
 */
import type { CSSProperties, KeyboardEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { FsEntry } from "./explorer_api.ts";
import { useContextMenuTrigger } from "./long_press.ts";
import { EntryThumb, KindIcon, useEntryKind } from "./EntryIcon.tsx";
import { formatBytes, formatDateTime } from "../../lib/format.ts";
import type { GallerySettings } from "./view_settings.ts";

export type EntryHandlers = {
  hrefOf: (e: FsEntry) => string;
  onMenu: (e: FsEntry, x: number, y: number) => void;
  isSelected: (e: FsEntry) => boolean;
  onSelect: (e: FsEntry, selected: boolean) => void;
  /** False at the virtual levels above mounts, where nothing can be selected. */
  selectable: boolean;
};

type ViewProps = EntryHandlers & { entries: FsEntry[] };

/** Opens the menu from the keyboard (Shift+F10, the context-menu key). */
function menuKey(e: KeyboardEvent, open: (x: number, y: number) => void) {
  if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) {
    e.preventDefault();
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    open(r.left + 16, r.bottom);
  }
}

function ActionsButton({ entry, onMenu }: { entry: FsEntry; onMenu: EntryHandlers["onMenu"] }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="btn btn-small btn-ghost entry-actions"
      aria-label={t("explorer.item.actions", { name: entry.name })}
      aria-haspopup="menu"
      onClick={(e) => {
        const r = e.currentTarget.getBoundingClientRect();
        onMenu(entry, r.left, r.bottom);
      }}
    >
      <span aria-hidden="true">⋯</span>
    </button>
  );
}

function SelectBox({ entry, h }: { entry: FsEntry; h: EntryHandlers }) {
  const { t } = useTranslation();
  if (!h.selectable) return null;
  return (
    <input
      type="checkbox"
      className="entry-check"
      checked={h.isSelected(entry)}
      aria-label={t("explorer.item.select", { name: entry.name })}
      onChange={(e) => h.onSelect(entry, e.currentTarget.checked)}
    />
  );
}

/** The element every entry is built on: menu triggers, selection class, data attributes. */
function EntryShell(
  { entry, h, as: Tag, className, style, children }: {
    entry: FsEntry;
    h: EntryHandlers;
    as: "tr" | "li";
    className: string;
    style?: CSSProperties;
    children: ReactNode;
  },
) {
  const trigger = useContextMenuTrigger((x, y) => h.onMenu(entry, x, y));
  const selected = h.selectable && h.isSelected(entry);
  return (
    <Tag
      className={`${className}${selected ? " is-selected" : ""}`}
      data-path={entry.path}
      data-type={entry.type}
      style={style}
      {...trigger}
    >
      {children}
    </Tag>
  );
}

function EntryLink(
  { entry, h, children, className }: {
    entry: FsEntry;
    h: EntryHandlers;
    children: ReactNode;
    className?: string;
  },
) {
  return (
    <Link
      to={h.hrefOf(entry)}
      className={className ?? "entry-link"}
      draggable={false}
      onKeyDown={(e) => menuKey(e, (x, y) => h.onMenu(entry, x, y))}
    >
      {children}
    </Link>
  );
}

function ListRow({ entry, h }: { entry: FsEntry; h: EntryHandlers }) {
  const { t, i18n } = useTranslation();
  const kind = useEntryKind(entry);
  return (
    <EntryShell entry={entry} h={h} as="tr" className="entry-row">
      {h.selectable && (
        <td className="entry-cell-check">
          <SelectBox entry={entry} h={h} />
        </td>
      )}
      <th scope="row" className="entry-cell-name">
        <EntryLink entry={entry} h={h}>
          <KindIcon kind={kind} size={20} />
          <span className="entry-name">{entry.name}</span>
        </EntryLink>
      </th>
      <td className="cell-nowrap entry-cell-size">
        {entry.type === "file" ? formatBytes(entry.size) : "—"}
      </td>
      <td className="cell-nowrap entry-cell-date">
        {formatDateTime(entry.modified, i18n.language, "—")}
      </td>
      <td className="entry-cell-type">{t(`explorer.kind.${kind}`)}</td>
      <td className="cell-actions">
        <ActionsButton entry={entry} onMenu={h.onMenu} />
      </td>
    </EntryShell>
  );
}

/** The list view: a table with name, size, modified date and kind. */
export function ListView({ entries, ...h }: ViewProps) {
  const { t } = useTranslation();
  return (
    <div className="table-wrap explorer-table-wrap">
      <table className="table explorer-table">
        <caption className="sr-only">{t("explorer.view.caption")}</caption>
        <thead>
          <tr>
            {h.selectable && (
              <th scope="col" className="entry-cell-check">
                <span className="sr-only">{t("explorer.item.selectColumn")}</span>
              </th>
            )}
            <th scope="col">{t("explorer.column.name")}</th>
            <th scope="col">{t("explorer.column.size")}</th>
            <th scope="col">{t("explorer.column.modified")}</th>
            <th scope="col">{t("explorer.column.type")}</th>
            <th scope="col">
              <span className="sr-only">{t("common.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => <ListRow key={e.path} entry={e} h={h} />)}
        </tbody>
      </table>
    </div>
  );
}

/** The corner of a card (grid and gallery): its checkbox and its actions button. */
function CardTools({ entry, h }: { entry: FsEntry; h: EntryHandlers }) {
  return (
    <span className="entry-card-tools">
      <SelectBox entry={entry} h={h} />
      <ActionsButton entry={entry} onMenu={h.onMenu} />
    </span>
  );
}

/** The list of cards of the grid and gallery views, named for screen readers. */
function CardList(
  { className, style, children }: { className: string; style?: CSSProperties; children: ReactNode },
) {
  const { t } = useTranslation();
  return (
    <ul className={className} style={style} aria-label={t("explorer.view.caption")}>
      {children}
    </ul>
  );
}

function Card({ entry, h }: { entry: FsEntry; h: EntryHandlers }) {
  return (
    <EntryShell entry={entry} h={h} as="li" className="entry-card">
      <EntryLink entry={entry} h={h} className="entry-card-link">
        <EntryThumb entry={entry} size={48} />
        <span className="entry-name">{entry.name}</span>
        {entry.type === "file" && (
          <span className="entry-meta muted">{formatBytes(entry.size)}</span>
        )}
      </EntryLink>
      <CardTools entry={entry} h={h} />
    </EntryShell>
  );
}

/** The grid view: cards with a thumbnail, name and size. */
export function GridView({ entries, ...h }: ViewProps) {
  return (
    <CardList className="explorer-grid">
      {entries.map((e) => <Card key={e.path} entry={e} h={h} />)}
    </CardList>
  );
}

/** The gallery view: images large, in the columns and spacing of the gallery settings. */
export function GalleryView(
  { entries, settings, ...h }: ViewProps & { settings: GallerySettings },
) {
  const style = {
    "--gallery-columns": settings.columns,
    "--gallery-gap-x": `${settings.gapX}px`,
    "--gallery-gap-y": `${settings.gapY}px`,
  } as CSSProperties;
  return (
    <CardList className="explorer-gallery" style={style}>
      {entries.map((e) => <GalleryItem key={e.path} entry={e} h={h} />)}
    </CardList>
  );
}

function GalleryItem({ entry, h }: { entry: FsEntry; h: EntryHandlers }) {
  const kind = useEntryKind(entry);
  return (
    <EntryShell entry={entry} h={h} as="li" className={`gallery-item gallery-item-${kind}`}>
      <EntryLink entry={entry} h={h} className="gallery-link">
        <EntryThumb entry={entry} size={64} />
        <span className="gallery-caption">{entry.name}</span>
      </EntryLink>
      <CardTools entry={entry} h={h} />
    </EntryShell>
  );
}
