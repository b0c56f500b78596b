/**
 * The editor's dark theme: CodeMirror's One Dark, with the colours that fall short of 4.5:1
 * on its background made lighter: the grey of links, comments and markers (3.86:1) and the
 * coral of headings and names (4.38:1). The light theme is CodeMirror's own; the placeholder
 * and gutter colours of both come from pastes.css.
 */
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { oneDarkHighlightStyle, oneDarkTheme } from "@codemirror/theme-one-dark";
import type { Extension } from "@uiw/react-codemirror";

/** One Dark's colours and the readable ones that replace them (5.65:1 and 5.81:1). */
const READABLE: Record<string, string> = { "#7d8799": "#9da5b4", "#e06c75": "#ef8a92" };

const darkHighlightStyle = HighlightStyle.define(
  oneDarkHighlightStyle.specs.map((spec) =>
    typeof spec.color === "string" && READABLE[spec.color]
      ? { ...spec, color: READABLE[spec.color] }
      : spec
  ),
);

/** One Dark with readable colours. */
export const darkEditorTheme: Extension = [oneDarkTheme, syntaxHighlighting(darkHighlightStyle)];
