/**
 * The content of an open paste with its actions (copy, raw): the sanitised Markdown, or, for a
 * share too large to render at once, the plain text with a button that renders it anyway.
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/CopyButton.tsx";
import { MarkdownView } from "../../components/MarkdownView.tsx";

type Props = {
  content: string;
  /** The rendered Markdown; null while `plain` shows the text instead. */
  html: string | null;
  /** Show the text unrendered, with a button (onRenderLarge) to render it. */
  plain: boolean;
  rawHref: string;
  onRenderLarge: () => void;
};

/** The copy and raw actions above the content. */
function ContentActions(
  { content, rawHref, children }: { content: string; rawHref: string; children?: ReactNode },
) {
  const { t } = useTranslation();
  return (
    <div className="paste-content-actions">
      <CopyButton text={content} label={t("paste.copyContent")} className="btn" />
      <a className="btn" href={rawHref} target="_blank" rel="noopener noreferrer">
        {t("paste.raw")}
      </a>
      {children}
    </div>
  );
}

/** The paste's text, rendered or plain, under its actions; nothing while html is pending. */
export function PasteContent({ content, html, plain, rawHref, onRenderLarge }: Props) {
  const { t } = useTranslation();
  if (plain) {
    return (
      <>
        <ContentActions content={content} rawHref={rawHref}>
          <button type="button" className="btn" onClick={onRenderLarge}>
            {t("paste.renderLarge")}
          </button>
        </ContentActions>
        <p className="muted">{t("paste.largePlain")}</p>
        <pre className="paste-plain" aria-label={t("paste.content")} tabIndex={0}>{content}</pre>
      </>
    );
  }
  if (html === null) return null;
  return (
    <>
      <ContentActions content={content} rawHref={rawHref} />
      <MarkdownView html={html} label={t("paste.content")} className="paste-content" />
    </>
  );
}
