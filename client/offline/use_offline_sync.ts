/**
 * The page's side of the offline queue: replays it when the browser comes back online (the
 * fallback where Background Sync is missing, and a second chance where it exists; the Web Lock
 * and the Idempotency-Keys make the two safe together), retries while online after a network
 * failure, and turns every replay's result, the page's or the worker's, into a notice: "synced"
 * for 3 s (management pages reload after 1 s when pastes changed), or the sync-failed toast.
 */
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../components/toast.ts";
import { OFFLINE_TOAST_MS } from "../../shared/pwa.ts";
import { QUEUED_EVENT } from "./queued_api.ts";
import {
  replayQueue,
  type ReplayResult,
  SYNC_CHANNEL,
  SYNC_NOTICE_MS,
  SYNC_RELOAD_DELAY_MS,
} from "./queue.ts";

const RETRY_MS = 3000;
const MAX_RETRIES = 20;

/** Management screens that list pastes: they reload after paste operations were synced. */
function isManagementPage(pathname: string): boolean {
  return pathname.startsWith("/admin/");
}

/** The browser's online flag, read fresh (never narrowed by an earlier check). */
function isOnline(): boolean {
  return navigator.onLine !== false;
}

/** Replays the queue now; resolves with the result (also broadcast to every page). */
export function syncOfflineQueue(): Promise<ReplayResult> {
  return replayQueue(location.origin);
}

/** Mounted once in the layout: replay triggers and sync notices. */
export function useOfflineSync() {
  const { t } = useTranslation();

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let retries = 0;
    let stopped = false;
    const run = async () => {
      clearTimeout(timer);
      if (stopped || !isOnline()) return;
      const result = await syncOfflineQueue();
      if (result.remaining > 0 && isOnline() && retries < MAX_RETRIES) {
        retries++;
        timer = setTimeout(run, RETRY_MS);
      } else retries = 0;
    };
    const onOnline = () => {
      retries = 0;
      run();
    };
    const onQueued = () => {
      toast.info(t("offlineData.queue.queuedToast"), OFFLINE_TOAST_MS);
      // Queued after a network error while "online": keep trying.
      if (isOnline()) timer = setTimeout(run, RETRY_MS);
    };
    globalThis.addEventListener("online", onOnline);
    globalThis.addEventListener(QUEUED_EVENT, onQueued);
    run();
    return () => {
      stopped = true;
      clearTimeout(timer);
      globalThis.removeEventListener("online", onOnline);
      globalThis.removeEventListener(QUEUED_EVENT, onQueued);
    };
  }, [t]);

  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(SYNC_CHANNEL);
    channel.onmessage = (e: MessageEvent<ReplayResult>) => {
      const result = e.data;
      if (result.synced > 0) {
        toast.success(t("offlineData.queue.synced", { count: result.synced }), SYNC_NOTICE_MS);
        if (result.pasteOps && isManagementPage(location.pathname)) {
          setTimeout(() => location.reload(), SYNC_RELOAD_DELAY_MS);
        }
      }
      if (result.failed > 0) toast.error(t("errors.sync_failed"));
    };
    return () => channel.close();
  }, [t]);
}
