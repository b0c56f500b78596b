/** The first steps of both browser entries (client/main.tsx, client/share_main.tsx). */
import { toLanguage } from "../i18n/setup.ts";
import { readEmbeddedData } from "./initial_data.tsx";
import { watchInstallPrompt } from "../pwa/install_prompt.ts";

/** Before rendering: the root element, the page data the server embedded, and the language. */
export function startPage() {
  // First: the install prompt event may fire early.
  watchInstallPrompt();
  const root = document.getElementById("root")!;
  const initial = readEmbeddedData() ?? { siteTitle: document.title || "Cubby" };
  const lang = toLanguage(document.documentElement.lang || localStorage.getItem("language"));
  return { root, initial, lang };
}
