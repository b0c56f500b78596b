/**
 * The touch long-press of docs/PRODUCT.md §9.1: holding a finger still (within 10 px) for 500 ms
 * opens the context menu, and the click that follows the release is swallowed. A mouse opens the
 * same menu with a right click; the keyboard with the item's actions button or Shift+F10.
 */
import { type MouseEvent, type PointerEvent, useEffect, useRef } from "react";

export const LONG_PRESS_MS = 500;
export const LONG_PRESS_TOLERANCE_PX = 10;

type Timers = {
  set: (fn: () => void, ms: number) => unknown;
  clear: (id: unknown) => void;
};

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (id) => clearTimeout(id as number),
};

/** Tracks one press: start, moves, end. Pure apart from the timer, so it is unit-tested. */
export class LongPressTracker {
  private timer: unknown = null;
  private origin: { x: number; y: number } | null = null;
  /** The press fired; the click after it must be ignored. */
  fired = false;

  constructor(
    private onFire: (x: number, y: number) => void,
    private timers: Timers = realTimers,
    private delay = LONG_PRESS_MS,
    private tolerance = LONG_PRESS_TOLERANCE_PX,
  ) {}

  /** A finger touched down at (x, y). */
  start(x: number, y: number): void {
    this.cancel();
    this.fired = false;
    this.origin = { x, y };
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.fired = true;
      this.onFire(x, y);
    }, this.delay);
  }

  /** The finger moved; more than the tolerance away cancels the press (it is a scroll). */
  move(x: number, y: number): void {
    if (!this.origin || this.timer === null) return;
    if (Math.hypot(x - this.origin.x, y - this.origin.y) > this.tolerance) this.cancel();
  }

  /** The finger lifted (or the press was interrupted). */
  cancel(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    this.origin = null;
  }

  /** True while a press is being timed. */
  get pending(): boolean {
    return this.timer !== null;
  }
}

/**
 * Props that open a context menu at a point: long-press on touch (and pen), right-click with a
 * mouse. Spread them on the item element.
 */
export function useContextMenuTrigger(open: (x: number, y: number) => void) {
  const openRef = useRef(open);
  openRef.current = open;
  const tracker = useRef<LongPressTracker | null>(null);
  tracker.current ??= new LongPressTracker((x, y) => openRef.current(x, y));
  useEffect(() => () => tracker.current?.cancel(), []);
  const t = tracker.current;
  return {
    onPointerDown: (e: PointerEvent) => {
      if (e.pointerType === "mouse" || !e.isPrimary) return;
      t.start(e.clientX, e.clientY);
    },
    onPointerMove: (e: PointerEvent) => t.move(e.clientX, e.clientY),
    onPointerUp: () => t.cancel(),
    onPointerCancel: () => t.cancel(),
    onClickCapture: (e: MouseEvent) => {
      if (!t.fired) return;
      t.fired = false;
      e.preventDefault();
      e.stopPropagation();
    },
    onContextMenu: (e: MouseEvent) => {
      e.preventDefault();
      // A touch's own contextmenu event comes with (or after) the long-press: open once.
      if (t.pending || t.fired) return;
      openRef.current(e.clientX, e.clientY);
    },
  };
}
