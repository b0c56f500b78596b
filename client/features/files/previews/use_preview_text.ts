/** Loads the text of a preview once per link; re-fetches when the link changes. */
import { useEffect, useState } from "react";
import type { PublicFileView } from "../files_api.ts";
import { fetchPreviewText, PreviewError, type TextPreview } from "./fetch_preview.ts";

export type PreviewTextState =
  | { status: "loading" }
  | { status: "ready"; preview: TextPreview }
  | { status: "failed"; httpStatus: number };

export function usePreviewText(file: Pick<PublicFileView, "preview_url" | "size">) {
  const [state, setState] = useState<PreviewTextState>({ status: "loading" });
  const { preview_url: url, size } = file;
  useEffect(() => {
    const abort = new AbortController();
    setState({ status: "loading" });
    fetchPreviewText(url, size, abort.signal).then(
      (preview) => setState({ status: "ready", preview }),
      (err) => {
        if (abort.signal.aborted) return;
        setState({ status: "failed", httpStatus: err instanceof PreviewError ? err.status : 0 });
      },
    );
    return () => abort.abort();
  }, [url, size]);
  return state;
}
