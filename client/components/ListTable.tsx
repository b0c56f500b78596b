/**
 * Pieces shared by the admin tables: the scrolling table frame with its header row, the
 * select-all and row checkboxes, and the Edit and Delete row buttons.
 */
import { createContext, type ReactNode, useContext, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { Selection } from "./use_admin_list.ts";

/** The selection of the table around a row, for its CheckCell. */
const SelectionContext = createContext<
  { name?: string; selection: Selection<{ id: string }> } | null
>(null);

/** A row's first cell: its checkbox in the selection of the TableFrame around it. */
export function CheckCell({ id, label }: { id: string; label: string }) {
  const context = useContext(SelectionContext);
  if (!context) throw new Error("CheckCell needs a TableFrame with `select`");
  return (
    <td className={`${context.name}-check`}>
      <RowCheckbox id={id} selection={context.selection} label={label} />
    </td>
  );
}

/** A header cell: its text, or its content with a class, a card label or a hidden text. */
export type Column =
  | string
  | { label: ReactNode; className?: string; dataLabel?: string; hidden?: boolean };

/**
 * A table in a focusable box that scrolls sideways on its own (never the page), named by
 * its caption.
 */
export function TableFrame(
  { caption, name, cards, select, columns, actions, children }: {
    /** The table's name for screen readers; `<name>.caption` when absent. */
    caption?: string;
    /** Classes the box `<name>-table-wrap` and the table `<name>-table`. */
    name?: string;
    /** Rows become cards on phones (the shared layout in tables.css). */
    cards?: boolean;
    /** Starts the header with a select-all checkbox with this label, for rows selected so. */
    select?: [label: string, selection: Selection<{ id: string }>];
    columns: Column[];
    /** Adds a last actions column whose header only screen readers read. */
    actions?: string;
    /** The rows. */
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  const label = caption ?? t(`${name}.caption`);
  const all = select ? [selectColumn(`${name}-check`, ...select), ...columns] : columns;
  return (
    <div
      className={`table-wrap${name ? ` ${name}-table-wrap` : ""}${
        cards ? " table-wrap-cards" : ""
      }`}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table className={`table${name ? ` ${name}-table` : ""}`}>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            {all.map((c, i) =>
              typeof c === "string"
                ? <th key={i} scope="col">{c}</th>
                : (
                  <th key={i} scope="col" className={c.className} data-label={c.dataLabel}>
                    {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
                  </th>
                )
            )}
            {actions && (
              <th scope="col" className="cell-actions">
                <span className="sr-only">{actions}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          <SelectionContext.Provider value={select ? { name, selection: select[1] } : null}>
            {children}
          </SelectionContext.Provider>
        </tbody>
      </table>
    </div>
  );
}

/** Each column name with its label: `{ slug: "Link suffix", … }`. */
export function labelsOf<N extends string>(
  names: readonly N[],
  label: (name: N) => string,
): Record<N, string> {
  return Object.fromEntries(names.map((n) => [n, label(n)])) as Record<N, string>;
}

/** The first column of a table with row selection: the select-all checkbox. */
export function selectColumn(
  className: string,
  label: string,
  { items, selected, onSelect }: Selection<{ id: string }>,
): Column {
  const ids = items.map((i) => i.id);
  return {
    className,
    dataLabel: label,
    label: <SelectAllBox ids={ids} selected={selected} onSelect={onSelect} label={label} />,
  };
}

/** The header checkbox: checked when every row is, mixed when some are. */
export function SelectAllBox(
  { ids, selected, onSelect, label }: {
    ids: string[];
    selected: Set<string>;
    onSelect: (next: Set<string>) => void;
    label: string;
  },
) {
  const ref = useRef<HTMLInputElement>(null);
  const count = ids.filter((id) => selected.has(id)).length;
  const all = ids.length > 0 && count === ids.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <input
      ref={ref}
      type="checkbox"
      checked={all}
      onChange={(e) => onSelect(e.currentTarget.checked ? new Set(ids) : new Set())}
      aria-label={label}
    />
  );
}

/** A row's checkbox, adding or removing its id from the selection. */
export function RowCheckbox(
  { id, selection: { selected, onSelect }, label }: {
    id: string;
    selection: Selection<{ id: string }>;
    label: string;
  },
) {
  return (
    <input
      type="checkbox"
      checked={selected.has(id)}
      onChange={(e) => {
        const next = new Set(selected);
        if (e.currentTarget.checked) next.add(id);
        else next.delete(id);
        onSelect(next);
      }}
      aria-label={label}
    />
  );
}

/** The Edit and Delete buttons of a row, named after the row for screen readers. */
export function RowButtons(
  { editLabel, deleteLabel, onEdit, onDelete, editBusy = false }: {
    editLabel: string;
    deleteLabel: string;
    onEdit: () => void;
    onDelete: () => void;
    /** The row's editor is being loaded. */
    editBusy?: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <>
      {
        /*
         * While the row's editor loads the button is only marked busy: a disabled button would
         * lose the focus, and the dialog would hand it back to <body> when it closes.
         */
      }
      <button
        type="button"
        className="btn btn-small"
        onClick={editBusy ? undefined : onEdit}
        aria-disabled={editBusy || undefined}
        aria-busy={editBusy || undefined}
        aria-label={editLabel}
      >
        {t("common.edit")}
      </button>
      <button
        type="button"
        className="btn btn-small btn-danger-outline"
        onClick={onDelete}
        aria-label={deleteLabel}
      >
        {t("common.delete")}
      </button>
    </>
  );
}

/** One small button of a row or card, named for screen readers by `aria`. */
export type SmallAction = {
  key: string;
  label: string;
  /** The accessible name, when the label alone does not say which item it acts on. */
  aria?: string;
  onClick: () => void;
  disabled?: boolean;
  /** Left out (an action that does not apply now). */
  hidden?: boolean;
  /** An extra button class: btn-ghost, btn-danger-outline… */
  tone?: string;
};

/** A row's or a card's small buttons, in order (the hidden ones left out). */
export function SmallButtons({ actions }: { actions: SmallAction[] }) {
  return (
    <>
      {actions.filter((a) => !a.hidden).map((a) => (
        <button
          key={a.key}
          type="button"
          className={`btn btn-small${a.tone ? ` ${a.tone}` : ""}`}
          onClick={a.onClick}
          disabled={a.disabled}
          aria-label={a.aria}
        >
          {a.label}
        </button>
      ))}
    </>
  );
}
