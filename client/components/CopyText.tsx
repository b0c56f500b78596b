/**
 * A read-only text box holding something to copy (a link, a new key): focusing it selects the
 * whole text, so it can also be copied by hand. `lines` makes it a box that wraps, for a narrow
 * column where one line would show only the start of a link.
 */
import type { InputHTMLAttributes } from "react";

/** The read-only, select-on-focus input (or wrapping box); `className` adds to `input`. */
export function CopyText(
  { value, className, lines, ...input }:
    & { value: string; className?: string; lines?: number }
    & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "readOnly" | "onFocus" | "className">,
) {
  const classes = `input${className ? ` ${className}` : ""}`;
  if (lines) {
    return (
      <textarea
        id={input.id}
        aria-label={input["aria-label"]}
        aria-describedby={input["aria-describedby"]}
        className={`${classes} copy-text-wrap`}
        rows={lines}
        readOnly
        value={value}
        spellCheck={false}
        onFocus={(e) => e.currentTarget.select()}
      />
    );
  }
  return (
    <input
      type="text"
      {...input}
      className={classes}
      readOnly
      value={value}
      onFocus={(e) => e.currentTarget.select()}
    />
  );
}
