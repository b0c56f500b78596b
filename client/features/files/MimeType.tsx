/**
 * A MIME type that may break over lines only between its parts (after "/", ".", "-" or "+"),
 * never inside a word: "application/vnd.openxmlformats-officedocument…" wraps as a person
 * would break it.
 */
import { Fragment } from "react";

/** The parts of a MIME type, each ending with the separator after which a line may break. */
export function mimeParts(type: string): string[] {
  return type.match(/[^/.+-]*[/.+-]?/g)?.filter(Boolean) ?? [type];
}

/** `type` with break opportunities after its separators (`<wbr>`). */
export function MimeType({ type, className }: { type: string; className?: string }) {
  return (
    <span className={`mime-type${className ? ` ${className}` : ""}`} title={type}>
      {mimeParts(type).map((part, i) => (
        <Fragment key={i}>
          {part}
          <wbr />
        </Fragment>
      ))}
    </span>
  );
}
