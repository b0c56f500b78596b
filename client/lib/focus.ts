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

/**
 * After an in-app navigation, for the next `frames` frames or until the user presses a key or
 * the pointer, moves a lost focus to the new page's heading. A single check can come too early:
 * a menu that closes on the new path, or a page that arrives a little later, drops the focus a
 * few frames after the path changed.
 */
export function keepFocusOnNewPage(frames = 60): () => void {
  let frame = 0;
  let left = frames;
  const stop = () => {
    cancelAnimationFrame(frame);
    removeEventListener("keydown", stop, true);
    removeEventListener("pointerdown", stop, true);
  };
  const check = () => {
    if (focusWasLost()) {
      focusPageHeading();
      if (!focusWasLost()) return stop();
    }
    if (--left <= 0) return stop();
    frame = requestAnimationFrame(check);
  };
  addEventListener("keydown", stop, true);
  addEventListener("pointerdown", stop, true);
  frame = requestAnimationFrame(check);
  return stop;
}
