/**
 * The home editor's side of the share target: on `/?share=1` it takes the text the service
 * worker stored; on `/?text=…` (the server fallback) it reads title, text and url from the query.
 * The query is then removed, so a reload does not paste the text again.
 */
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../components/toast.ts";
import { sharedText, takeSharedPayload } from "./shared_payload.ts";

/** React hook: calls `onText` once with shared text, when the page was opened by a share. */
export function useSharedText(onText: (text: string) => void) {
  const { t } = useTranslation();
  const onTextRef = useRef(onText);
  onTextRef.current = onText;
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const fromQuery = sharedText({
      title: params.get("title") ?? undefined,
      text: params.get("text") ?? undefined,
      url: params.get("url") ?? undefined,
    });
    if (!params.has("share") && !fromQuery) return;
    let cancelled = false;
    (async () => {
      const payload = params.has("share") ? await takeSharedPayload().catch(() => null) : null;
      const text = payload ? sharedText(payload) : fromQuery;
      if (cancelled) return;
      history.replaceState(history.state, "", location.pathname);
      if (!text) return;
      onTextRef.current(text);
      toast.info(t("offlineData.share.received"));
    })();
    return () => {
      cancelled = true;
    };
  }, [t]);
}
