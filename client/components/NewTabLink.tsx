/** A link that opens in a new tab without handing the new page a reference to this one. */
import type { AnchorHTMLAttributes } from "react";

/** `<a target="_blank" rel="noopener noreferrer">` with the given attributes. */
export function NewTabLink(
  props: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "target" | "rel">,
) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}
