/**
 * Asks before deleting one item, then deletes it: a toast says how it went, and the dialog
 * closes either way (or stays open on failure when `keepOpenOnError`).
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../api/errors.ts";
import { ConfirmDialog } from "./Modal.tsx";
import { toast } from "./toast.ts";

export function DeleteConfirmDialog<T>(
  { name, target, vars, remove, onClose, onDeleted, keepOpenOnError }: {
    /** The i18n namespace: the texts are `<name>.delete.title`, `.confirm` and `.submit`. */
    name: string;
    /** The item to delete; null while the dialog is closed. */
    target: T | null;
    /** The values the confirmation names (`{{name}}`…). */
    vars: (target: T) => Record<string, string>;
    /** Deletes the item and gives the success text. */
    remove: (target: T) => Promise<string>;
    onClose: () => void;
    /** After a deletion: reload the list. */
    onDeleted: () => void;
    keepOpenOnError?: boolean;
  },
) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (target === null) return;
    setBusy(true);
    try {
      toast.success(await remove(target));
      onClose();
      onDeleted();
    } catch (err) {
      toast.error(errorText(t, err));
      if (!keepOpenOnError) onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open={target !== null}
      title={t(`${name}.delete.title`)}
      message={target === null ? "" : t(`${name}.delete.confirm`, vars(target))}
      confirmLabel={t(`${name}.delete.submit`)}
      danger
      busy={busy}
      onConfirm={() => void run()}
      onCancel={onClose}
    />
  );
}
