/**
 * A read-only text box holding something to copy (a link, a new key): focusing it selects the
 * whole text, so it can also be copied by hand.
 */
import type { InputHTMLAttributes } from "react";

/** The read-only, select-on-focus input; `className` adds to `input`. */
export function CopyText(
  { value, className, ...input }:
    & { value: string; className?: string }
    & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "readOnly" | "onFocus" | "className">,
) {
  return (
    <input
      type="text"
      {...input}
      className={`input${className ? ` ${className}` : ""}`}
      readOnly
      value={value}
      onFocus={(e) => e.currentTarget.select()}
    />
  );
}
