/**
 * Editing a share in a dialog: content, and the share options of ShareEditDialog
 * (PUT /api/pastes/:id). Only changed fields are sent.
 */
import { useDeferredValue, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { MAX_PASTE_BYTES } from "../../../shared/constants.ts";
import { type PasteView, updatePaste, type UpdatePasteInput } from "./pastes_api.ts";
import { checkContent, utf8ByteLength } from "./paste_form.ts";
import { EditorPanes } from "./EditorPanes.tsx";
import { ByteCounter } from "./ByteCounter.tsx";
import { ShareEditDialog } from "../../components/ShareEditDialog.tsx";

export default function PasteEditDialog(
  { paste, onClose, onSaved }: {
    /** The share as its manager reads it (with content). */
    paste: PasteView;
    onClose: () => void;
    onSaved: (paste: PasteView) => void;
  },
) {
  const { t } = useTranslation();
  const original = paste.content ?? "";
  const [content, setContent] = useState(original);
  const deferred = useDeferredValue(content);
  const bytes = useMemo(() => utf8ByteLength(deferred), [deferred]);
  const [contentError, setContentError] = useState<string | null>(null);
  const shownContentError = bytes > MAX_PASTE_BYTES ? t("errors.content_too_large") : contentError;
  const idPrefix = `edit-${paste.id}`;

  return (
    <ShareEditDialog<UpdatePasteInput>
      share={paste}
      kind="paste"
      idPrefix={idPrefix}
      title={t("paste.edit.title", { slug: paste.slug })}
      onClose={onClose}
      check={() => {
        if (paste.e2e) return true; // the content is ciphertext: not edited here
        const code = checkContent(content);
        if (code) setContentError(t(`errors.${code}`));
        return code === null;
      }}
      collect={(changes) => (content !== original ? { ...changes, content } : changes)}
      save={async (input) => {
        const next = await updatePaste(paste.id, input);
        onSaved({ ...next, content: next.content ?? input.content ?? original });
      }}
      placeError={(err, text) => {
        if (!err.code.startsWith("content_")) return false;
        setContentError(text);
        return true;
      }}
      after={paste.e2e ? () => <p className="muted">{t("e2e.listHint")}</p> : undefined}
      before={paste.e2e ? undefined : () => (
        <>
          <EditorPanes
            value={content}
            onChange={(v) => {
              setContent(v);
              setContentError(null);
            }}
            label={t("paste.edit.content")}
            describedBy={shownContentError ? `${idPrefix}-content-error` : undefined}
            invalid={!!shownContentError}
            bytes={bytes}
            toolbarEnd={<ByteCounter bytes={bytes} />}
            compact
          />
          {shownContentError && (
            <p id={`${idPrefix}-content-error`} className="field-error" role="alert">
              {shownContentError}
            </p>
          )}
        </>
      )}
    />
  );
}
