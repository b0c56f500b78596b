/**
 * The home editor's queued paste: the queue item id of a paste created offline, until a replay
 * (the page's or the service worker's) reports it created; then `onCreated` gets the new paste.
 */
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from "react";
import { type ReplayResult, SYNC_CHANNEL } from "./queue.ts";

/** React hook: [queued item id or null, setter]; clears itself once the item was synced. */
export function useQueuedPaste(
  onCreated: (paste: unknown) => void,
): [number | null, Dispatch<SetStateAction<number | null>>] {
  const [queuedId, setQueuedId] = useState<number | null>(null);
  const onCreatedRef = useRef(onCreated);
  onCreatedRef.current = onCreated;
  useEffect(() => {
    if (queuedId === null || typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(SYNC_CHANNEL);
    channel.onmessage = (e: MessageEvent<ReplayResult>) => {
      const hit = e.data.created.find((c) => c.id === queuedId);
      if (!hit) return;
      setQueuedId(null);
      if (hit.paste) onCreatedRef.current(hit.paste);
    };
    return () => channel.close();
  }, [queuedId]);
  return [queuedId, setQueuedId];
}
