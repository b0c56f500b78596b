/**
 * The table of file shares on the file management screen. Where the list is narrower than
 * 760 px (a container query in files.css) each row becomes a card, every cell labelled by its
 * column name.
 */
import { useTranslation } from "react-i18next";
import { paths } from "../../routes.ts";
import {
  DateTimeText,
  EditDeleteButtons,
  labelsOf,
  RowCheckbox,
  selectColumn,
  TableFrame,
  viewsText,
} from "../../components/ListTable.tsx";
import { isPast } from "../pastes/time.ts";
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
  const { t } = useTranslation();
  const names = ["name", "sizeType", "remark", "created", "expires", "views"] as const;
  const col = labelsOf(names, (n) => t(`files.columns.${n}`));
  const actions = t("common.actions");

  return (
    <TableFrame
      caption={t("files.caption")}
      name="files"
      columns={[
        selectColumn("files-check", t("files.selectAll"), { items, selected, onSelect }),
        ...names.map((n) => col[n]),
        actions,
      ]}
    >
      {items.map((item) => {
        const expired = isPast(item.expires_at) ||
          (item.max_views > 0 && item.views >= item.max_views);
        return (
          <tr key={item.id} className={expired ? "row-muted" : undefined}>
            <td className="files-check">
              <RowCheckbox
                id={item.id}
                selected={selected}
                onSelect={onSelect}
                label={t("files.selectRow", { name: item.filename })}
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
            <td data-label={col.sizeType}>
              <div>
                <span className="cell-nowrap">{formatFileSize(item.size)}</span>
                <span className="muted files-type" title={item.mimetype}>{item.mimetype}</span>
              </div>
            </td>
            <td data-label={col.remark} className="files-remark">{item.remark || "—"}</td>
            <td data-label={col.created} className="files-date">
              <DateTimeText iso={item.created_at} />
            </td>
            <td data-label={col.expires} className="files-date">
              <DateTimeText iso={item.expires_at} never={t("file.info.never")} />
            </td>
            <td data-label={col.views} className="cell-nowrap">
              {viewsText(item.views, item.max_views, t("files.unlimited"))}
            </td>
            <td data-label={actions}>
              <span className="files-row-actions">
                <EditDeleteButtons
                  editLabel={t("files.editRow", { name: item.filename })}
                  deleteLabel={t("files.deleteRow", { name: item.filename })}
                  onEdit={() => onEdit(item)}
                  onDelete={() => onDelete(item)}
                />
              </span>
            </td>
          </tr>
        );
      })}
    </TableFrame>
  );
}
