/**
 * Keeping the keyboard focus somewhere meaningful when what held it goes away (a form that is
 * replaced, a button that is disabled, a menu that closes, a page that is left): otherwise it
 * drops to <body>, and keyboard and screen-reader users start again from the top.
 */

/** True when nothing holds the focus (it fell back to <body>). */
export function focusWasLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

/** Focuses `el`, making it focusable by script only (tabindex -1) when it is not already. */
export function focusElement(el: HTMLElement | null): boolean {
  if (!el) return false;
  if (!el.hasAttribute("tabindex") && el.tabIndex < 0) el.setAttribute("tabindex", "-1");
  el.focus();
  return document.activeElement === el;
}

/** Focuses the page's level-1 heading, or else the main landmark. */
export function focusPageHeading(): void {
  if (!focusElement(document.querySelector<HTMLElement>("main h1"))) {
    focusElement(document.getElementById("main"));
  }
}

/** After the next two frames (the render that removed the focus is painted), runs `fn`. */
export function afterPaint(fn: () => void): () => void {
  let frame = requestAnimationFrame(() => {
    frame = requestAnimationFrame(fn);
  });
  return () => cancelAnimationFrame(frame);
}
