/** Asks for a name: a new folder, or a new name for a file or folder. */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../components/FormDialog.tsx";
import { errorText } from "../../api/errors.ts";
import { FormField } from "../../components/FormField.tsx";
import { isValidName } from "./explorer_paths.ts";

export function NameDialog(
  { title, label, initial = "", submitLabel, onSubmit, onClose }: {
    title: string;
    label: string;
    initial?: string;
    submitLabel: string;
    /** Saves the name; a thrown error is shown in the dialog. */
    onSubmit: (name: string) => Promise<void>;
    onClose: () => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!isValidName(name)) {
      setError(t("explorer.name.invalid"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(name.trim());
    } catch (err) {
      setError(errorText(t, err));
      setBusy(false);
    }
  };
  return (
    <FormDialog
      title={title}
      formId="explorer-name-form"
      form={{ submit, busy }}
      onClose={onClose}
      submitLabel={submitLabel}
      size="small"
    >
      <FormField id="explorer-name" label={label} error={error}>
        {(a) => (
          <input
            {...a}
            className="input"
            value={name}
            autoComplete="off"
            spellCheck={false}
            maxLength={255}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setError(null);
            }}
            onFocus={(e) => {
              // Select the name without its extension, as file managers do.
              const dot = e.currentTarget.value.lastIndexOf(".");
              e.currentTarget.setSelectionRange(0, dot > 0 ? dot : e.currentTarget.value.length);
            }}
          />
        )}
      </FormField>
    </FormDialog>
  );
}
