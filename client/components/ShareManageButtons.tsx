/** The owner's buttons on a share page: edit (where the page offers it) and delete. */
import { useTranslation } from "react-i18next";

const TEXTS = {
  file: { group: "file.manage", edit: "common.edit", delete: "common.delete" },
  paste: { group: "paste.manage", edit: "paste.edit.open", delete: "paste.delete.open" },
} as const;

/** A labelled group (`.<kind>-manage`) of the owner's buttons, each opening its dialog. */
export function ShareManageButtons(
  { kind, canEdit = true, onOpen }: {
    kind: "file" | "paste";
    canEdit?: boolean;
    onOpen: (dialog: "edit" | "delete") => void;
  },
) {
  const { t } = useTranslation();
  const texts = TEXTS[kind];
  return (
    <div className={`${kind}-manage`} role="group" aria-label={t(texts.group)}>
      {canEdit && (
        <button type="button" className="btn" onClick={() => onOpen("edit")}>
          {t(texts.edit)}
        </button>
      )}
      <button type="button" className="btn btn-danger" onClick={() => onOpen("delete")}>
        {t(texts.delete)}
      </button>
    </div>
  );
}
