/**
 * Previews built from the file's text: plain text and code (highlighted), Markdown (rendered
 * with the paste view's renderer and sanitiser, or as source) and HTML (in an iframe sandboxed
 * with no permissions at all, so its scripts, forms and navigation are inert; or as source).
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { MarkdownView, useRenderedMarkdown } from "../../../components/MarkdownView.tsx";
import type { PublicFileView } from "../files_api.ts";
import { CodeBlock } from "./CodeBlock.tsx";
import { codeLanguageOf } from "./code_language.ts";
import { usePreviewText } from "./use_preview_text.ts";
import {
  BinaryNote,
  type PreviewActions,
  PreviewLoading,
  type PreviewMode,
  PreviewProblem,
  TruncatedNote,
  ViewToggle,
} from "./PreviewParts.tsx";

type Props = { file: PublicFileView } & PreviewActions;

export function TextPreview({ file, ...actions }: Props) {
  const { t } = useTranslation();
  const state = usePreviewText(file);
  if (state.status === "loading") return <PreviewLoading />;
  if (state.status === "failed") return <PreviewProblem status={state.httpStatus} {...actions} />;
  const { text, truncated, binary } = state.preview;
  if (binary) return <BinaryNote downloadHref={actions.downloadHref} />;
  return (
    <div className="file-preview-text">
      {truncated && <TruncatedNote size={file.size} />}
      {text === "" ? <p className="muted file-preview-empty">{t("preview.empty")}</p> : (
        <CodeBlock
          text={text}
          language={codeLanguageOf(file.filename)}
          label={t("preview.contentOf", { name: file.filename })}
        />
      )}
    </div>
  );
}

export function MarkdownPreview({ file, ...actions }: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<PreviewMode>("rendered");
  const state = usePreviewText(file);
  const text = state.status === "ready" && !state.preview.binary ? state.preview.text : null;
  const html = useRenderedMarkdown(text);
  if (state.status === "loading") return <PreviewLoading />;
  if (state.status === "failed") return <PreviewProblem status={state.httpStatus} {...actions} />;
  if (text === null) return <BinaryNote downloadHref={actions.downloadHref} />;
  const label = t("preview.contentOf", { name: file.filename });
  return (
    <div className="file-preview-text">
      <div className="file-preview-bar">
        <ViewToggle mode={mode} onChange={setMode} />
      </div>
      {state.preview.truncated && <TruncatedNote size={file.size} />}
      {mode === "source"
        ? <CodeBlock text={text} language="markdown" label={label} />
        : html === null
        ? <PreviewLoading />
        : <MarkdownView html={html} label={label} className="file-markdown" />}
    </div>
  );
}

export function HtmlPreview({ file, ...actions }: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<PreviewMode>("rendered");
  const state = usePreviewText(file);
  if (state.status === "loading") return <PreviewLoading />;
  if (state.status === "failed") return <PreviewProblem status={state.httpStatus} {...actions} />;
  const { text, truncated, binary } = state.preview;
  if (binary) return <BinaryNote downloadHref={actions.downloadHref} />;
  const label = t("preview.contentOf", { name: file.filename });
  return (
    <div className="file-preview-text">
      <div className="file-preview-bar">
        <ViewToggle mode={mode} onChange={setMode} />
        <span className="muted file-preview-hint">{t("preview.htmlSandboxed")}</span>
      </div>
      {truncated && <TruncatedNote size={file.size} />}
      {mode === "source" ? <CodeBlock text={text} language="xml" label={label} /> : (
        <iframe
          className="file-frame file-frame-html"
          title={label}
          sandbox=""
          referrerPolicy="no-referrer"
          srcDoc={text}
        />
      )}
    </div>
  );
}
