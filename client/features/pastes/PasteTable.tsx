/**
 * The table of shares on the text management screen. Below 720 px each row becomes a card
 * (CSS), with every cell labelled by its column name.
 */
import { useTranslation } from "react-i18next";
import { E2EBadge } from "../e2e/E2EBadge.tsx";
import { paths } from "../../../shared/app_paths.ts";
import { CheckCell, labelsOf, RowButtons, TableFrame } from "../../components/ListTable.tsx";
import type { Selection } from "../../components/use_admin_list.ts";
import type { PasteListItem } from "./pastes_api.ts";
import { NewTabLink } from "../../components/NewTabLink.tsx";
import { ShareTime, viewsText } from "../../components/ShareFacts.tsx";

/** The columns after the checkbox, by their key under texts.columns. */
const COLUMNS = ["slug", "remark", "preview", "created", "expires", "views", "status"] as const;

export function PasteTable(
  { selection, onEdit, onDelete, openingId }: {
    selection: Selection<PasteListItem>;
    onEdit: (item: PasteListItem) => void;
    onDelete: (item: PasteListItem) => void;
    /** The row whose editor is being loaded. */
    openingId: string | null;
  },
) {
  const { t } = useTranslation();
  const col = labelsOf(COLUMNS, (n) => t(`texts.columns.${n}`));
  const actions = t("common.actions");

  return (
    <TableFrame
      name="texts"
      columns={[...Object.values(col), { label: actions, className: "texts-actions-cell" }]}
      select={[t("texts.selectAll"), selection]}
    >
      {selection.items.map((item) => (
        <tr key={item.id} className={item.is_expired ? "texts-row-expired" : undefined}>
          <CheckCell id={item.id} label={t("texts.selectRow", { slug: item.slug })} />
          <td data-label={col.slug} className="texts-slug">
            <NewTabLink href={paths.paste(item.slug)}>
              {item.slug}
            </NewTabLink>
          </td>
          <td data-label={col.remark} className="texts-remark">{item.remark || "—"}</td>
          <td data-label={col.preview} className="texts-preview">
            {item.e2e ? <E2EBadge /> : <span>{item.preview}</span>}
          </td>
          <td data-label={col.created}>
            <ShareTime iso={item.created_at} />
          </td>
          <td data-label={col.expires}>
            <ShareTime iso={item.expires_at} never={t("paste.meta.never")} />
          </td>
          <td data-label={col.views}>
            {viewsText(item.views, item.max_views, t("texts.unlimited"))}
          </td>
          <td data-label={col.status}>
            <span className="texts-badges">
              {(item.e2e ? item.e2e.has_password : item.has_password) && (
                <span className="badge">{t("texts.badges.password")}</span>
              )}
              {item.is_expired && (
                <span className="badge badge-danger">{t("texts.badges.expired")}</span>
              )}
              {!item.has_password && !item.is_expired && (
                <span className="badge badge-success">{t("texts.badges.active")}</span>
              )}
            </span>
          </td>
          <td data-label={actions} className="texts-actions-cell">
            <span className="texts-row-actions">
              <NewTabLink
                className="btn btn-small"
                href={paths.paste(item.slug)}
                aria-label={t("texts.viewRow", { slug: item.slug })}
              >
                {t("texts.view")}
              </NewTabLink>
              <RowButtons
                editLabel={t("texts.editRow", { slug: item.slug })}
                deleteLabel={t("texts.deleteRow", { slug: item.slug })}
                onEdit={() =>
                  onEdit(item)}
                onDelete={() =>
                  onDelete(item)}
                editBusy={openingId === item.id}
              />
            </span>
          </td>
        </tr>
      ))}
    </TableFrame>
  );
}
