/**
 * A form's refusal that concerns no single field, shown at the top of the form: announced to
 * screen readers, and scrolled into view whenever it appears, so a dialog taller than the
 * screen never hides it below the fold.
 */
import { useEffect, useRef } from "react";

/** The refusal text at the top of a form, or nothing. */
export function FormAlert({ text, id }: { text: string | null | undefined; id?: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (text) ref.current?.scrollIntoView({ block: "nearest" });
  }, [text]);
  if (!text) return null;
  return <p ref={ref} id={id} className="form-error form-alert" role="alert">{text}</p>;
}
