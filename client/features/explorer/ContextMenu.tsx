/**
 * A context menu at a point (right click, long-press, or an item's actions button): a list of
 * menuitems with arrow-key movement, Escape to close, and focus returned to where it was.
 * It stays inside the viewport.
 */
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from "react";

export type MenuItem = {
  id: string;
  label: string;
  onSelect: () => void;
  danger?: boolean;
};

export function ContextMenu(
  { x, y, label, items, onClose }: {
    x: number;
    y: number;
    label: string;
    items: MenuItem[];
    onClose: () => void;
  },
) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: x, top: y });
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { width, height } = el.getBoundingClientRect();
    const margin = 8;
    setPos({
      left: Math.max(margin, Math.min(x, globalThis.innerWidth - width - margin)),
      top: Math.max(margin, Math.min(y, globalThis.innerHeight - height - margin)),
    });
  }, [x, y]);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    const away = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) onCloseRef.current();
    };
    const close = () => onCloseRef.current();
    // Scrolling by the user (wheel, a finger) closes the menu; "scroll" events are not used,
    // because the scroll that brought the clicked item into view can arrive after opening.
    document.addEventListener("pointerdown", away, true);
    document.addEventListener("wheel", away, { capture: true, passive: true });
    document.addEventListener("touchmove", away, { capture: true, passive: true });
    globalThis.addEventListener("resize", close);
    return () => {
      document.removeEventListener("pointerdown", away, true);
      document.removeEventListener("wheel", away, true);
      document.removeEventListener("touchmove", away, true);
      globalThis.removeEventListener("resize", close);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => buttons[(i + buttons.length) % buttons.length]?.focus();
    if (e.key === "ArrowDown") focus(at + 1);
    else if (e.key === "ArrowUp") focus(at - 1);
    else if (e.key === "Home") focus(0);
    else if (e.key === "End") focus(buttons.length - 1);
    else if (e.key === "Escape" || e.key === "Tab") onClose();
    else return;
    e.preventDefault();
  };

  return (
    <div
      ref={ref}
      className="context-menu"
      role="menu"
      aria-label={label}
      style={{ left: pos.left, top: pos.top }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => (
        <button
          key={item.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`context-menu-item${item.danger ? " context-menu-danger" : ""}`}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
