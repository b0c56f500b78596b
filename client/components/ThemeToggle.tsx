/**
 * The theme button (docs/PRODUCT.md §1, §4.6): cycles auto → light → dark → auto and stores the
 * mode as `themeMode`. The mode is read through useSyncExternalStore whose server snapshot is
 * "auto", so a server-rendered page hydrates without a mismatch and then shows the stored mode.
 * THEME_BOOT_SCRIPT (in the document head) has already painted the right colours by then.
 */
import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { applyTheme, nextThemeMode, readThemeMode, type ThemeMode } from "../app/theme.ts";
import { LineIcon } from "./LineIcon.tsx";

const CHANGE_EVENT = "cubby:theme-change";

function subscribe(onChange: () => void) {
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === "themeMode") {
      applyTheme(readThemeMode());
      onChange();
    }
  };
  globalThis.addEventListener(CHANGE_EVENT, onChange);
  globalThis.addEventListener("storage", onStorage);
  return () => {
    globalThis.removeEventListener(CHANGE_EVENT, onChange);
    globalThis.removeEventListener("storage", onStorage);
  };
}

function readMode(): ThemeMode {
  try {
    return readThemeMode();
  } catch {
    return "auto";
  }
}

/** Applies and stores a mode, and tells every useThemeMode() user. */
export function setThemeMode(mode: ThemeMode): void {
  try {
    applyTheme(mode);
  } catch { /* storage unavailable: the page still switches */ }
  globalThis.dispatchEvent(new Event(CHANGE_EVENT));
}

/** React hook: the stored theme mode ("auto" on the server and while hydrating). */
export function useThemeMode(): ThemeMode {
  return useSyncExternalStore(subscribe, readMode, () => "auto");
}

/** Keeps `<html data-theme>` following the system while the mode is auto. */
function useSystemThemeFollower(mode: ThemeMode) {
  useEffect(() => {
    if (mode !== "auto" || !globalThis.matchMedia) return;
    const query = globalThis.matchMedia("(prefers-color-scheme: dark)");
    const onChange = () => applyTheme("auto");
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, [mode]);
}

function ThemeIcon({ mode }: { mode: ThemeMode }) {
  if (mode === "light") {
    return (
      <LineIcon size={18} roundJoins>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </LineIcon>
    );
  }
  if (mode === "dark") {
    return (
      <LineIcon size={18} roundJoins>
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      </LineIcon>
    );
  }
  return (
    <LineIcon size={18} roundJoins>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 3a9 9 0 0 1 0 18z" fill="currentColor" />
    </LineIcon>
  );
}

/** The button that cycles the theme; its accessible name says the current mode. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const mode = useThemeMode();
  useSystemThemeFollower(mode);
  const next = nextThemeMode(mode);
  const current = t(`nav.theme.${mode}`);
  const label = t("shell.theme.toggle", { mode: current });
  return (
    <button
      type="button"
      className="btn btn-ghost theme-toggle"
      data-theme-mode={mode}
      aria-label={label}
      title={`${label} (${t("shell.theme.next", { mode: t(`nav.theme.${next}`) })})`}
      onClick={() => setThemeMode(next)}
    >
      <ThemeIcon mode={mode} />
      <span className="theme-toggle-text" aria-hidden="true">{current}</span>
    </button>
  );
}
