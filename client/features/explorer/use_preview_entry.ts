/**
 * The file named by `?preview=<name>` in the current folder: taken from the listing when it is
 * there, else asked for (it may sit on a page not loaded yet). A name that does not exist is
 * reported and the query dropped.
 */
import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { type FsEntry, getEntry } from "./explorer_api.ts";
import { joinPath } from "./explorer_paths.ts";

export function usePreviewEntry(path: string, items: FsEntry[], loading: boolean) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const name = params.get("preview");
  const [entry, setEntry] = useState<FsEntry | null>(null);

  useEffect(() => {
    if (!name) return setEntry(null);
    const hit = items.find((i) => i.name === name && i.type === "file");
    if (hit) return setEntry(hit);
    if (loading) return;
    let alive = true;
    getEntry(joinPath(path, name)).then(
      (e) => alive && setEntry(e),
      (err) => {
        if (!alive) return;
        toast.error(errorText(t, err));
        setParams({}, { replace: true });
      },
    );
    return () => {
      alive = false;
    };
  }, [name, items, loading, path, setParams, t]);

  /** Shows another file of the folder. */
  const open = useCallback(
    (e: FsEntry) => setParams({ preview: e.name }, { replace: true }),
    [setParams],
  );
  const close = useCallback(() => setParams({}, { replace: true }), [setParams]);
  return { entry, setEntry, open, close };
}
