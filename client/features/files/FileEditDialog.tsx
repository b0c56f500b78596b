/**
 * Editing a file share in a dialog (PUT /api/files/:id): the share options of ShareEditDialog,
 * and proxy access. Only changed fields are sent.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CheckField } from "../../components/FormField.tsx";
import { ShareEditDialog } from "../../components/ShareEditDialog.tsx";
import { type FileView, updateFile, type UpdateFileInput } from "./files_api.ts";
// Lazy modules only: see FilePage.tsx on why the file styles are imported here.

export default function FileEditDialog(
  { file, onClose, onSaved }: {
    file: FileView;
    onClose: () => void;
    /** `password`: the new password, null when removed, undefined when unchanged. */
    onSaved: (file: FileView, password: string | null | undefined) => void;
  },
) {
  const { t } = useTranslation();
  const idPrefix = `file-edit-${file.id}`;
  const [useProxy, setUseProxy] = useState(file.use_proxy);

  return (
    <ShareEditDialog<UpdateFileInput>
      share={file}
      kind="file"
      size="medium"
      idPrefix={idPrefix}
      title={t("file.edit.title", { name: file.filename })}
      onClose={onClose}
      collect={(changes) =>
        useProxy !== file.use_proxy ? { ...changes, use_proxy: useProxy } : changes}
      save={async (input) => onSaved(await updateFile(file.id, input), input.password)}
      after={(busy) => (
        <CheckField
          id={`${idPrefix}-proxy`}
          label={t("file.edit.useProxy")}
          hint={t("file.edit.useProxyHint")}
          checked={useProxy}
          disabled={busy}
          onChange={setUseProxy}
        />
      )}
    />
  );
}
