/**
 * The Markdown editor with its live preview: edit, preview or split view. Split puts the two
 * side by side on wide screens and one above the other on narrow ones.
 */
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { MarkdownEditor } from "./MarkdownEditor.tsx";
import { MarkdownView, useRenderedMarkdown } from "../../components/MarkdownView.tsx";
import { formatBytes } from "../../lib/format.ts";
import { ToggleGroup } from "../../components/ToggleGroup.tsx";

export type EditorMode = "edit" | "preview" | "split";
const MODES: EditorMode[] = ["edit", "preview", "split"];

/**
 * Above this size the preview no longer follows every keystroke (rendering and sanitising a
 * few MB takes seconds); it is rendered on request instead.
 */
export const LIVE_PREVIEW_MAX_BYTES = 256 * 1024;

/** The mode to start in: split where there is room, else edit (browser only). */
export function initialEditorMode(): EditorMode {
  return globalThis.matchMedia?.("(min-width: 900px)").matches ? "split" : "edit";
}

export function EditorPanes(
  { value, onChange, label, describedBy, invalid, bytes, toolbarEnd, autoFocus, compact }: {
    value: string;
    onChange: (value: string) => void;
    label: string;
    describedBy?: string;
    invalid?: boolean;
    /** UTF-8 size of value, to slow the preview down for large texts. */
    bytes: number;
    /** Shown at the end of the toolbar (the byte counter). */
    toolbarEnd?: ReactNode;
    autoFocus?: boolean;
    /** Smaller panes (inside a dialog). */
    compact?: boolean;
  },
) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<EditorMode>(initialEditorMode);
  /** The text last rendered on request, while the preview is not live. */
  const [requested, setRequested] = useState<string | null>(null);
  const showPreview = mode !== "edit";
  const live = bytes <= LIVE_PREVIEW_MAX_BYTES;
  const previewSource = showPreview ? (live ? value : requested) : null;
  const html = useRenderedMarkdown(previewSource, live ? (bytes > 64 * 1024 ? 400 : 150) : 0);

  return (
    <div className={`paste-editor paste-editor-${mode}${compact ? " paste-editor-compact" : ""}`}>
      <div className="paste-editor-toolbar">
        <ToggleGroup
          className="paste-segmented"
          label={t("home.editor.mode")}
          options={MODES}
          value={mode}
          onChange={setMode}
          optionLabel={(m) =>
            t(`home.editor.modes.${m}`)}
        />
        {toolbarEnd}
      </div>
      <div className="paste-editor-panes">
        <div className="paste-editor-pane" hidden={mode === "preview"}>
          <MarkdownEditor
            value={value}
            onChange={onChange}
            label={label}
            describedBy={describedBy}
            invalid={invalid}
            placeholder={t("home.editor.placeholder")}
            autoFocus={autoFocus}
          />
        </div>
        {showPreview && (
          <section className="paste-preview-pane" aria-label={t("home.editor.preview")}>
            {!live && (
              <div className="paste-preview-paused">
                <p className="muted">
                  {t("home.editor.previewPaused", { size: formatBytes(LIVE_PREVIEW_MAX_BYTES) })}
                </p>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => setRequested(value)}
                  disabled={requested === value}
                >
                  {t("home.editor.renderPreview")}
                </button>
              </div>
            )}
            {value.trim() === ""
              ? <p className="muted">{t("home.editor.emptyPreview")}</p>
              : previewSource === null
              ? null
              : html === null
              ? <p className="muted">{t("common.loading")}</p>
              : <MarkdownView html={html} />}
          </section>
        )}
      </div>
    </div>
  );
}
