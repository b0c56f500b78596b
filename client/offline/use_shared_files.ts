/**
 * The upload screen's side of the share target: on `/upload?share=1` the files the service
 * worker stored join the upload queue (offline they wait there like any chosen file).
 */
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../components/toast.ts";
import { takeSharedPayload } from "./shared_payload.ts";

/** React hook: calls `onFiles` once with the shared files, when the page was opened by a share. */
export function useSharedFiles(onFiles: (files: File[]) => void) {
  const { t } = useTranslation();
  const onFilesRef = useRef(onFiles);
  onFilesRef.current = onFiles;
  useEffect(() => {
    if (!new URLSearchParams(location.search).has("share")) return;
    let cancelled = false;
    (async () => {
      const payload = await takeSharedPayload().catch(() => null);
      if (cancelled) return;
      history.replaceState(history.state, "", location.pathname);
      const files = (payload?.files ?? []).map((f) =>
        new File([f.blob], f.name, { type: f.type, lastModified: f.lastModified })
      );
      if (files.length === 0) return;
      onFilesRef.current(files);
      toast.info(t("offlineData.share.filesReceived"));
    })();
    return () => {
      cancelled = true;
    };
  }, [t]);
}
