/**
 * The table of file shares on the file management screen. Where the list is narrower than
 * 760 px (a container query in files.css) each row becomes a card, every cell labelled by its
 * column name.
 */
import { MimeType } from "./MimeType.tsx";
import { useTranslation } from "react-i18next";
import { E2EBadge } from "../e2e/E2EBadge.tsx";
import { paths } from "../../../shared/app_paths.ts";
import { CheckCell, labelsOf, RowButtons, TableFrame } from "../../components/ListTable.tsx";
import type { Selection } from "../../components/use_admin_list.ts";
import type { FileView } from "./files_api.ts";
import { formatBytes } from "../../lib/format.ts";
import { NewTabLink } from "../../components/NewTabLink.tsx";
import { isPast, ShareTime, viewsText } from "../../components/ShareFacts.tsx";

/** The columns after the checkbox, by their key under files.columns. */
const COLUMNS = ["name", "sizeType", "remark", "created", "expires", "views"] as const;

export function FileTable(
  { selection, onEdit, onDelete }: {
    selection: Selection<FileView>;
    onEdit: (item: FileView) => void;
    onDelete: (item: FileView) => void;
  },
) {
  const { t } = useTranslation();
  const col = labelsOf(COLUMNS, (n) => t(`files.columns.${n}`));

  return (
    <TableFrame
      name="files"
      select={[t("files.selectAll"), selection]}
      columns={[...Object.values(col), t("common.actions")]}
    >
      {selection.items.map((item) => {
        const expired = isPast(item.expires_at) ||
          (item.max_views > 0 && item.views >= item.max_views);
        return (
          <tr key={item.id} className={expired ? "row-muted" : undefined}>
            <CheckCell id={item.id} label={t("files.selectRow", { name: item.filename })} />
            <td data-label={col.name} className="files-name">
              <div>
                <NewTabLink href={paths.file(item.slug)}>
                  {item.e2e ? t("e2e.encryptedName") : item.filename}
                </NewTabLink>
                <span className="muted files-slug">{item.slug}</span>
                <span className="badge-list files-badges">
                  {item.e2e && <E2EBadge />}
                  {(item.e2e ? item.e2e.has_password : item.has_password) && (
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
                <span className="cell-nowrap">{formatBytes(item.size)}</span>
                <MimeType className="muted files-type" type={item.mimetype} />
              </div>
            </td>
            <td data-label={col.remark} className="files-remark">{item.remark || "—"}</td>
            <td data-label={col.created} className="files-date">
              <ShareTime iso={item.created_at} />
            </td>
            <td data-label={col.expires} className="files-date">
              <ShareTime iso={item.expires_at} never={t("file.info.never")} />
            </td>
            <td data-label={col.views} className="cell-nowrap">
              {viewsText(item.views, item.max_views, t("files.unlimited"))}
            </td>
            <td data-label={t("common.actions")}>
              <span className="files-row-actions">
                <RowButtons
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
