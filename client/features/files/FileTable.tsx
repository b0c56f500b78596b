/**
 * The table of file shares on the file management screen. Where the list is narrower than
 * 760 px (a container query in files.css) each row becomes a card, every cell labelled by its
 * column name.
 */
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../routes.ts";
import { formatDateTime, isPast } from "../pastes/time.ts";
import type { FileView } from "./files_api.ts";
import { formatFileSize } from "./format.ts";

export function FileTable(
  { items, selected, onSelect, onEdit, onDelete }: {
    items: FileView[];
    selected: Set<string>;
    onSelect: (next: Set<string>) => void;
    onEdit: (item: FileView) => void;
    onDelete: (item: FileView) => void;
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
    name: t("files.columns.name"),
    size: t("files.columns.sizeType"),
    remark: t("files.columns.remark"),
    created: t("files.columns.created"),
    expires: t("files.columns.expires"),
    views: t("files.columns.views"),
    actions: t("common.actions"),
  };

  return (
    <div className="table-wrap files-table-wrap">
      <table className="table files-table">
        <caption className="sr-only">{t("files.caption")}</caption>
        <thead>
          <tr>
            <th scope="col" className="files-check">
              <input
                ref={allRef}
                type="checkbox"
                checked={all}
                onChange={(e) =>
                  onSelect(e.currentTarget.checked ? new Set(items.map((i) => i.id)) : new Set())}
                aria-label={t("files.selectAll")}
              />
            </th>
            <th scope="col">{col.name}</th>
            <th scope="col">{col.size}</th>
            <th scope="col">{col.remark}</th>
            <th scope="col">{col.created}</th>
            <th scope="col">{col.expires}</th>
            <th scope="col">{col.views}</th>
            <th scope="col">{col.actions}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const expired = isPast(item.expires_at) ||
              (item.max_views > 0 && item.views >= item.max_views);
            return (
              <tr key={item.id} className={expired ? "row-muted" : undefined}>
                <td className="files-check">
                  <input
                    type="checkbox"
                    checked={selected.has(item.id)}
                    onChange={(e) => toggle(item.id, e.currentTarget.checked)}
                    aria-label={t("files.selectRow", { name: item.filename })}
                  />
                </td>
                <td data-label={col.name} className="files-name">
                  <div>
                    <a href={paths.file(item.slug)} target="_blank" rel="noopener noreferrer">
                      {item.filename}
                    </a>
                    <span className="muted files-slug">{item.slug}</span>
                    <span className="badge-list files-badges">
                      {item.has_password && (
                        <span className="badge badge-warning">{t("files.badges.password")}</span>
                      )}
                      <span className="badge">
                        {item.use_proxy ? t("files.badges.proxy") : t("files.badges.direct")}
                      </span>
                      {expired && (
                        <span className="badge badge-danger">{t("files.badges.expired")}</span>
                      )}
                    </span>
                  </div>
                </td>
                <td data-label={col.size}>
                  <div>
                    <span className="cell-nowrap">{formatFileSize(item.size)}</span>
                    <span className="muted files-type" title={item.mimetype}>{item.mimetype}</span>
                  </div>
                </td>
                <td data-label={col.remark} className="files-remark">{item.remark || "—"}</td>
                <td data-label={col.created} className="files-date">
                  <time dateTime={item.created_at}>
                    {formatDateTime(item.created_at, lang, true)}
                  </time>
                </td>
                <td data-label={col.expires} className="files-date">
                  {item.expires_at
                    ? (
                      <time dateTime={item.expires_at}>
                        {formatDateTime(item.expires_at, lang, true)}
                      </time>
                    )
                    : t("file.info.never")}
                </td>
                <td data-label={col.views} className="cell-nowrap">
                  {item.max_views > 0
                    ? `${item.views} / ${item.max_views}`
                    : `${item.views} / ${t("files.unlimited")}`}
                </td>
                <td data-label={col.actions}>
                  <span className="files-row-actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => onEdit(item)}
                      aria-label={t("files.editRow", { name: item.filename })}
                    >
                      {t("common.edit")}
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-danger-outline"
                      onClick={() => onDelete(item)}
                      aria-label={t("files.deleteRow", { name: item.filename })}
                    >
                      {t("common.delete")}
                    </button>
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
