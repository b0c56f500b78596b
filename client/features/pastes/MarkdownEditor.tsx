/** The CodeMirror 6 Markdown editor, themed after <html data-theme> and labelled for readers. */
import { useMemo, useSyncExternalStore } from "react";
import CodeMirror, { EditorView } from "@uiw/react-codemirror";
import { markdown, markdownLanguage } from "@codemirror/lang-markdown";
import { darkEditorTheme } from "./editor_theme.ts";

function subscribeTheme(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}

/** The applied colour scheme ("light" or "dark"), following changes of the theme toggle. */
export function useDocumentTheme(): "light" | "dark" {
  return useSyncExternalStore(
    subscribeTheme,
    () => (document.documentElement.dataset.theme === "dark" ? "dark" : "light"),
    () => "light",
  );
}

export type MarkdownEditorProps = {
  value: string;
  onChange: (value: string) => void;
  /** Accessible name of the text box. */
  label: string;
  /** Id of an element that describes the text box (hint or error). */
  describedBy?: string;
  invalid?: boolean;
  placeholder?: string;
  autoFocus?: boolean;
  className?: string;
};

/** A Markdown text box; Tab moves the focus on, so keyboard users are never trapped. */
export function MarkdownEditor(props: MarkdownEditorProps) {
  const theme = useDocumentTheme();
  const { label, describedBy, invalid } = props;
  const extensions = useMemo(() => {
    const attrs: Record<string, string> = { "aria-label": label };
    if (describedBy) attrs["aria-describedby"] = describedBy;
    if (invalid) attrs["aria-invalid"] = "true";
    return [
      markdown({ base: markdownLanguage }),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of(attrs),
    ];
  }, [label, describedBy, invalid]);
  return (
    <CodeMirror
      className={`md-editor ${props.className ?? ""}`}
      value={props.value}
      onChange={props.onChange}
      theme={theme === "dark" ? darkEditorTheme : "light"}
      extensions={extensions}
      placeholder={props.placeholder}
      autoFocus={props.autoFocus}
      indentWithTab={false}
      basicSetup={{ foldGutter: false, highlightActiveLineGutter: false }}
    />
  );
}
