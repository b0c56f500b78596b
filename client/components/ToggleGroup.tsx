/**
 * A labelled group of small toggle buttons where the pressed one is the current choice (a
 * segmented control): chart kinds, editor modes, explorer views, preview modes.
 */
import type { ReactNode } from "react";

/** One button per option; `highlight` also paints the pressed one as primary. */
export function ToggleGroup<T extends string>(
  { options, value, onChange, label, optionLabel, className, highlight = false }: {
    options: readonly T[];
    value: T;
    onChange: (option: T) => void;
    /** The accessible name of the group. */
    label: string;
    optionLabel: (option: T) => ReactNode;
    className: string;
    highlight?: boolean;
  },
) {
  return (
    <div className={className} role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={o}
          type="button"
          className={`btn btn-small${highlight && value === o ? " btn-primary" : ""}`}
          aria-pressed={value === o}
          onClick={() => onChange(o)}
        >
          {optionLabel(o)}
        </button>
      ))}
    </div>
  );
}
