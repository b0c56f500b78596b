/** The heading row of a page: its title, an optional line below it, and actions on the right. */
import type { ReactNode } from "react";

/** `<header class="page-header">` with the h1 (named `titleId` when given). */
export function PageHeader(
  { title, intro, titleId, actions }: {
    title: ReactNode;
    /** The muted line under the title. */
    intro?: ReactNode;
    titleId?: string;
    /** Buttons on the right, already wrapped (usually in `.page-actions`). */
    actions?: ReactNode;
  },
) {
  const heading = <h1 id={titleId}>{title}</h1>;
  return (
    <header className="page-header">
      {intro === undefined ? heading : (
        <div>
          {heading}
          <p className="muted">{intro}</p>
        </div>
      )}
      {actions}
    </header>
  );
}
