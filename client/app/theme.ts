/** Theme mode (docs/PRODUCT.md §1): auto → light → dark → auto, stored as `themeMode`. */
export type ThemeMode = "auto" | "light" | "dark";

export const THEME_STORAGE_KEY = "themeMode";
const ORDER: ThemeMode[] = ["auto", "light", "dark"];

/** The stored mode, auto by default. */
export function readThemeMode(): ThemeMode {
  const v = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
  return v === "light" || v === "dark" ? v : "auto";
}

/** The mode after `mode` in the cycle. */
export function nextThemeMode(mode: ThemeMode): ThemeMode {
  return ORDER[(ORDER.indexOf(mode) + 1) % ORDER.length];
}

/** Applies a mode to <html data-theme> and stores it. */
export function applyTheme(mode: ThemeMode): void {
  const doc = globalThis.document?.documentElement;
  if (!doc) return;
  const dark = mode === "dark" ||
    (mode === "auto" && globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches);
  doc.dataset.theme = dark ? "dark" : "light";
  doc.dataset.themeMode = mode;
  globalThis.localStorage?.setItem(THEME_STORAGE_KEY, mode);
}

/** Inline script run before first paint, so a dark page never flashes light. */
export const THEME_BOOT_SCRIPT =
  `(function(){try{var m=localStorage.getItem("themeMode")||"auto";var d=m==="dark"||(m==="auto"&&matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.dataset.theme=d?"dark":"light";document.documentElement.dataset.themeMode=m;}catch(e){}})();`;
