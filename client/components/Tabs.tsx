/**
 * A tab list with its panels, following the WAI-ARIA tabs pattern: one tab in the tab order,
 * arrow keys (Left/Right, Home/End) move the selection and focus, and every panel stays
 * mounted (hidden when not selected), so what the user typed in one survives a switch.
 */
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";

/** The tab after pressing `key` on `current`, or null for a key that does not move. */
function nextTab<T>(ids: readonly T[], current: T, key: string): T | null {
  const i = ids.indexOf(current);
  if (key === "ArrowRight") return ids[(i + 1) % ids.length];
  if (key === "ArrowLeft") return ids[(i + ids.length - 1) % ids.length];
  if (key === "Home") return ids[0];
  if (key === "End") return ids[ids.length - 1];
  return null;
}

/** The tabs `ids` (the first selected), named by `tabLabel`, with `panel(id)` as each panel. */
export function Tabs<T extends string>(
  { ids, label, tabLabel, panel, panelClassName }: {
    ids: readonly T[];
    /** The accessible name of the tab list. */
    label: string;
    tabLabel: (id: T) => ReactNode;
    panel: (id: T) => ReactNode;
    panelClassName: string;
  },
) {
  const baseId = useId();
  const [tab, setTab] = useState<T>(ids[0]);
  const refs = useRef<Partial<Record<T, HTMLButtonElement | null>>>({});

  const onKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const next = nextTab(ids, tab, e.key);
    if (!next) return;
    e.preventDefault();
    setTab(next);
    refs.current[next]?.focus();
  };

  return (
    <>
      <div className="tabs" role="tablist" aria-label={label}>
        {ids.map((id) => (
          <button
            key={id}
            ref={(el) => {
              refs.current[id] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`${baseId}-panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            className={`tab${tab === id ? " active" : ""}`}
            onClick={() => setTab(id)}
            onKeyDown={onKey}
          >
            {tabLabel(id)}
          </button>
        ))}
      </div>
      {ids.map((id) => (
        <div
          key={id}
          role="tabpanel"
          id={`${baseId}-panel-${id}`}
          aria-labelledby={`${baseId}-tab-${id}`}
          className={panelClassName}
          hidden={tab !== id}
        >
          {panel(id)}
        </div>
      ))}
    </>
  );
}
