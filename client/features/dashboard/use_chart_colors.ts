/**
 * The chart's colours, read from the shell's CSS variables (client/styles/app.css) so the chart
 * follows light and dark mode, and read again whenever <html data-theme> changes. Null until
 * mounted: the server and the first client render never touch the DOM.
 */
import { useEffect, useState } from "react";

export type ChartColors = {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  pastes: string;
  files: string;
  /** The app's font stack, so the chart's text matches the page. */
  font: string;
  /** True when the user asked for reduced motion. */
  reducedMotion: boolean;
};

function readColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: v("--color-text", "#1a2130"),
    muted: v("--color-muted", "#576174"),
    grid: v("--color-border", "#d9dfe8"),
    surface: v("--color-surface", "#ffffff"),
    pastes: v("--color-primary", "#2563eb"),
    files: v("--color-success", "#157a3b"),
    font: v("--font-sans", "system-ui, sans-serif"),
    reducedMotion: globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false,
  };
}

/** The current chart colours, or null before the first effect. */
export function useChartColors(): ChartColors | null {
  const [colors, setColors] = useState<ChartColors | null>(null);
  useEffect(() => {
    setColors(readColors());
    const observer = new MutationObserver(() => setColors(readColors()));
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ["data-theme"],
    });
    return () => observer.disconnect();
  }, []);
  return colors;
}
