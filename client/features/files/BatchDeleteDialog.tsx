/** Confirms deleting file shares, with the delete mode: records and stored files, or records only. */
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../components/Modal.tsx";
import type { DeleteMode, FileView } from "./files_api.ts";
import { CheckLabel } from "../../components/FormField.tsx";

export function BatchDeleteDialog(
  { items, busy, onConfirm, onCancel }: {
    /** The files to delete; the dialog is open while this is non-empty. */
    items: FileView[];
    busy: boolean;
    onConfirm: (mode: DeleteMode) => void;
    onCancel: () => void;
  },
) {
  const { t } = useTranslation();
  const name = useId();
  const [mode, setMode] = useState<DeleteMode>("both");
  return (
    <ConfirmDialog
      open={items.length > 0}
      title={t("files.delete.title", { n: items.length })}
      message={items.length === 1
        ? t("files.delete.one", { name: items[0].filename })
        : t("files.delete.many", { n: items.length })}
      confirmLabel={t("common.delete")}
      danger
      busy={busy}
      onConfirm={() => onConfirm(mode)}
      onCancel={onCancel}
    >
      <fieldset className="fieldset files-delete-mode">
        <legend>{t("files.delete.mode")}</legend>
        {(["both", "record_only"] as const).map((m) => (
          <CheckLabel
            key={m}
            type="radio"
            name={name}
            value={m}
            label={t(`files.delete.modes.${m}`)}
            checked={mode === m}
            disabled={busy}
            onChange={() => setMode(m)}
          />
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}
