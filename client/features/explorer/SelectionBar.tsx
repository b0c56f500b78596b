/** The batch bar shown while entries are selected: basket, copy, delete, select all, clear. */
import { useTranslation } from "react-i18next";
import { SmallButtons } from "../../components/ListTable.tsx";

export function SelectionBar(
  { count, total, canCopy, canDelete, onBasket, onCopy, onDelete, onSelectAll, onClear }: {
    count: number;
    total: number;
    canCopy: boolean;
    canDelete: boolean;
    onBasket: () => void;
    onCopy: () => void;
    onDelete: () => void;
    onSelectAll: () => void;
    onClear: () => void;
  },
) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <div className="explorer-selection" role="region" aria-label={t("explorer.selection.label")}>
      <span className="explorer-selection-count" aria-live="polite">
        {t("explorer.selection.count", { n: count })}
      </span>
      {count < total && (
        <button type="button" className="btn btn-small" onClick={onSelectAll}>
          {t("explorer.selection.all", { n: total })}
        </button>
      )}
      <button type="button" className="btn btn-small" onClick={onClear}>
        {t("explorer.selection.clear")}
      </button>
      <span className="explorer-toolbar-spacer" />
      <SmallButtons
        actions={[
          { key: "basket", label: t("explorer.action.basket"), onClick: onBasket },
          { key: "copy", label: t("explorer.action.copy"), onClick: onCopy, hidden: !canCopy },
          {
            key: "delete",
            label: t("explorer.action.delete"),
            onClick: onDelete,
            hidden: !canDelete,
            tone: "btn-danger-outline",
          },
        ]}
      />
    </div>
  );
}
