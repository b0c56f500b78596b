/**
 * The frame of every decorative line icon: a square 24×24 viewBox drawn with the current text
 * colour and rounded strokes, hidden from screen readers (the control around it is named).
 */
import type { ReactNode } from "react";

/** A decorative stroked SVG icon of `size` pixels holding the given shapes. */
export function LineIcon(
  { size, strokeWidth = 2, roundJoins = false, className, children }: {
    size: number;
    strokeWidth?: number;
    /** Round the corners where strokes meet, as well as their ends. */
    roundJoins?: boolean;
    className?: string;
    children: ReactNode;
  },
) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin={roundJoins ? "round" : undefined}
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}
