/**
 * Editing a text file of a mount: the whole file is loaded (at most 10 MB, the editor limit
 * of docs/PRODUCT.md §5.2), edited in a plain text area and saved with `fs/update`. Leaving with
 * unsaved changes asks first.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { saveErrorText } from "../../api/save_errors.ts";
import { toast } from "../../components/toast.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { utf8ByteLength } from "../../../shared/slug.ts";
import { MAX_PASTE_BYTES } from "../../../shared/constants.ts";
import { type FsEntry, saveText } from "./explorer_api.ts";
import { forgetFileLinks } from "./use_file_link.ts";
import { DialogButtons } from "../../components/DialogButtons.tsx";

export default function TextEditor(
  { entry, url, onCancel, onSaved }: {
    entry: FsEntry;
    /** A signed link to the file's bytes. */
    url: string;
    onCancel: () => void;
    onSaved: (e: FsEntry) => void;
  },
) {
  const { t } = useTranslation();
  const [original, setOriginal] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [loadError, setLoadError] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    fetch(url, { signal: ctrl.signal })
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`HTTP ${res.status}`))))
      .then((body) => {
        setOriginal(body);
        setText(body);
      })
      .catch(() => !ctrl.signal.aborted && setLoadError(true));
    return () => ctrl.abort();
  }, [url]);

  const dirty = original !== null && text !== original;
  const tooLarge = utf8ByteLength(text) > MAX_PASTE_BYTES;

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const saved = await saveText(entry.path, text);
      forgetFileLinks([entry.path]);
      toast.success(t("explorer.edit.saved", { name: entry.name }));
      onSaved(saved);
    } catch (err) {
      setError(saveErrorText(t, err));
      setSaving(false);
    }
  };

  const cancel = () => {
    if (!dirty || globalThis.confirm(t("explorer.edit.discard"))) onCancel();
  };

  if (loadError) {
    return (
      <div className="alert alert-error" role="alert">
        <span>{t("errors.preview_failed")}</span>
        <button type="button" className="btn btn-small" onClick={onCancel}>
          {t("common.back")}
        </button>
      </div>
    );
  }
  if (original === null) return <Spinner />;
  return (
    <div className="explorer-editor">
      <label htmlFor="explorer-editor-text" className="sr-only">
        {t("explorer.edit.label", { name: entry.name })}
      </label>
      <textarea
        id="explorer-editor-text"
        className="input input-mono explorer-editor-text"
        value={text}
        spellCheck={false}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
            e.preventDefault();
            if (dirty && !tooLarge && !saving) void save();
          }
        }}
      />
      {tooLarge && <p className="field-error" role="alert">{t("explorer.edit.tooLarge")}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="explorer-editor-actions">
        <DialogButtons
          onCancel={cancel}
          cancelDisabled={saving}
          label={t("common.save")}
          onConfirm={() => void save()}
          disabled={!dirty || tooLarge || saving}
          busy={saving}
        />
      </div>
    </div>
  );
}
