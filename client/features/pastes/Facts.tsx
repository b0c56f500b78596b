/** The entries of a share's facts list (`dl`), shared by the paste and file share pages. */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatTimestamp } from "../../lib/format.ts";

/** One entry: a term and its value. */
export function Fact(
  { term, className, children }: { term: ReactNode; className?: string; children: ReactNode },
) {
  return (
    <div className={className}>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A time in the visitor's zone once `local` (else UTC), or `never` when there is none. */
export function FactTime(
  { iso, local, never }: { iso: string | null; local: boolean; never?: string },
) {
  const { i18n } = useTranslation();
  if (!iso) return <>{never}</>;
  return <time dateTime={iso}>{formatTimestamp(iso, i18n.language, local)}</time>;
}
