/**
 * The site footer (docs/PRODUCT.md §2.2: shown on all pages except admin). With footer Markdown
 * configured it shows that, sanitised with the shared policy; otherwise the default line. The
 * server's rendering of the Markdown is used while the source is unchanged, so hydration matches; a
 * changed footer is rendered in the browser.
 */
import { useTranslation } from "react-i18next";
import { useInitialData } from "../app/initial_data.tsx";
import { siteDataOf, useSiteConfig } from "../app/site_config.ts";
import { useRenderedMarkdown } from "./MarkdownView.tsx";
import { APP_VERSION } from "../../shared/constants.ts";

/**
 * Sanitised HTML of the footer or announcement Markdown (null while it is being rendered, or
 * when `source` is null): the server's HTML when the source is the one it rendered.
 */
export function useSiteMarkdownHtml(
  source: string | null,
  which: "footer" | "announcement",
): string | null {
  const data = siteDataOf(useInitialData());
  const rendered = which === "footer"
    ? data.site?.footerMarkdown
    : data.site?.announcementEnabled
    ? data.site.announcementContent
    : undefined;
  const serverHtml = data.siteHtml?.[which];
  const fromServer = source !== null && serverHtml !== undefined && rendered === source;
  const local = useRenderedMarkdown(fromServer ? null : source);
  return fromServer ? serverHtml : local;
}

/** The footer: the configured Markdown, or "Powered by Cubby · Version". */
export function Footer() {
  const { t } = useTranslation();
  const site = useSiteConfig();
  const custom = site.footerMarkdown.trim() !== "";
  const html = useSiteMarkdownHtml(custom ? site.footerMarkdown : null, "footer");
  if (custom) {
    return (
      <footer className="site-footer site-footer-custom">
        <div
          className="markdown-body site-footer-markdown"
          dangerouslySetInnerHTML={{ __html: html ?? "" }}
        />
      </footer>
    );
  }
  return (
    <footer className="site-footer">
      <p>
        <span>{t("footer.poweredBy")}</span>
        <span className="site-footer-sep" aria-hidden="true">·</span>
        <span>{t("shell.version", { version: APP_VERSION })}</span>
      </p>
    </footer>
  );
}
