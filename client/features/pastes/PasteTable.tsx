/**
 * The table of shares on the text management screen. Below 720 px each row becomes a card
 * (CSS), with every cell labelled by its column name.
 */
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../routes.ts";
import type { PasteListItem } from "./pastes_api.ts";
import { formatDateTime } from "./time.ts";

export function PasteTable(
  { items, selected, onSelect, onEdit, onDelete, openingId }: {
    items: PasteListItem[];
    selected: Set<string>;
    onSelect: (next: Set<string>) => void;
    onEdit: (item: PasteListItem) => void;
    onDelete: (item: PasteListItem) => void;
    /** The row whose editor is being loaded. */
    openingId: string | null;
  },
) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const allRef = useRef<HTMLInputElement>(null);
  const count = items.filter((i) => selected.has(i.id)).length;
  const all = items.length > 0 && count === items.length;
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = count > 0 && !all;
  }, [count, all]);

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  const col = {
    slug: t("texts.columns.slug"),
    remark: t("texts.columns.remark"),
    preview: t("texts.columns.preview"),
    created: t("texts.columns.created"),
    expires: t("texts.columns.expires"),
    views: t("texts.columns.views"),
    status: t("texts.columns.status"),
    actions: t("common.actions"),
  };

  return (
    <div
      className="table-wrap texts-table-wrap"
      role="region"
      aria-label={t("texts.caption")}
      tabIndex={0}
    >
      <table className="table texts-table">
        <caption className="sr-only">{t("texts.caption")}</caption>
        <thead>
          <tr>
            <th scope="col" className="texts-check" data-label={t("texts.selectAll")}>
              <input
                ref={allRef}
                type="checkbox"
                checked={all}
                onChange={(e) =>
                  onSelect(e.currentTarget.checked ? new Set(items.map((i) => i.id)) : new Set())}
                aria-label={t("texts.selectAll")}
              />
            </th>
            <th scope="col">{col.slug}</th>
            <th scope="col">{col.remark}</th>
            <th scope="col">{col.preview}</th>
            <th scope="col">{col.created}</th>
            <th scope="col">{col.expires}</th>
            <th scope="col">{col.views}</th>
            <th scope="col">{col.status}</th>
            <th scope="col" className="texts-actions-cell">{col.actions}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} className={item.is_expired ? "texts-row-expired" : undefined}>
              <td className="texts-check">
                <input
                  type="checkbox"
                  checked={selected.has(item.id)}
                  onChange={(e) =>
                    toggle(item.id, e.currentTarget.checked)}
                  aria-label={t("texts.selectRow", { slug: item.slug })}
                />
              </td>
              <td data-label={col.slug} className="texts-slug">
                <a href={paths.paste(item.slug)} target="_blank" rel="noopener noreferrer">
                  {item.slug}
                </a>
              </td>
              <td data-label={col.remark} className="texts-remark">{item.remark || "—"}</td>
              <td data-label={col.preview} className="texts-preview">
                <span>{item.preview}</span>
              </td>
              <td data-label={col.created}>
                <time dateTime={item.created_at}>
                  {formatDateTime(item.created_at, lang, true)}
                </time>
              </td>
              <td data-label={col.expires}>
                {item.expires_at
                  ? (
                    <time dateTime={item.expires_at}>
                      {formatDateTime(item.expires_at, lang, true)}
                    </time>
                  )
                  : t("paste.meta.never")}
              </td>
              <td data-label={col.views}>
                {item.max_views > 0
                  ? `${item.views} / ${item.max_views}`
                  : `${item.views} / ${t("texts.unlimited")}`}
              </td>
              <td data-label={col.status}>
                <span className="texts-badges">
                  {item.has_password && <span className="badge">{t("texts.badges.password")}</span>}
                  {item.is_expired && (
                    <span className="badge badge-danger">{t("texts.badges.expired")}</span>
                  )}
                  {!item.has_password && !item.is_expired && (
                    <span className="badge badge-success">{t("texts.badges.active")}</span>
                  )}
                </span>
              </td>
              <td data-label={col.actions} className="texts-actions-cell">
                <span className="texts-row-actions">
                  <a
                    className="btn btn-small"
                    href={paths.paste(item.slug)}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={t("texts.viewRow", { slug: item.slug })}
                  >
                    {t("texts.view")}
                  </a>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() =>
                      onEdit(item)}
                    disabled={openingId === item.id}
                    aria-busy={openingId === item.id}
                    aria-label={t("texts.editRow", { slug: item.slug })}
                  >
                    {t("common.edit")}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-danger-outline"
                    onClick={() => onDelete(item)}
                    aria-label={t("texts.deleteRow", { slug: item.slug })}
                  >
                    {t("common.delete")}
                  </button>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
