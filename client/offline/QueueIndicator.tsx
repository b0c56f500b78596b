/**
 * The offline queue's indicator: a small pill, shown while writes wait to be sent, that opens
 * the list of queued items with their state, a "sync now" button and a way to discard items the
 * server refused.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueItem } from "./db.ts";
import { offlineDb } from "./open_db.ts";
import { syncOfflineQueue } from "./use_offline_sync.ts";

/** React hook: the queued items, oldest first, live from IndexedDB (empty on the server). */
export function useQueueItems(): QueueItem[] {
  const [items, setItems] = useState<QueueItem[]>([]);
  useEffect(() => {
    let sub: { unsubscribe(): void } | undefined;
    let stopped = false;
    // Dexie loads after the page has hydrated (open_db.ts).
    Promise.all([import("dexie"), offlineDb()]).then(([{ liveQuery }, db]) => {
      if (stopped) return;
      sub = liveQuery(() => db.offlineQueue.orderBy("timestamp").toArray()).subscribe({
        next: setItems,
        error: () => setItems([]),
      });
    }, () => setItems([]));
    return () => {
      stopped = true;
      sub?.unsubscribe();
    };
  }, []);
  return items;
}

export function QueueIndicator() {
  const { t, i18n } = useTranslation();
  const items = useQueueItems();
  if (items.length === 0) return null;
  const pending = items.filter((i) => i.status === "pending").length;
  return (
    <details className="queue-indicator" data-testid="offline-queue">
      <summary>
        {t("offlineData.queue.summary", { count: items.length })}
      </summary>
      <div className="queue-indicator-body">
        <ul>
          {items.map((item) => (
            <li key={item.id} data-status={item.status}>
              <span>{t(`offlineData.queue.types.${item.type}`)}</span>{" "}
              <span className="muted">
                {new Date(item.timestamp).toLocaleTimeString(i18n.language)}
              </span>{" "}
              <span className={item.status === "failed" ? "field-error" : "muted"}>
                {item.status === "failed"
                  ? t("offlineData.queue.failed", { error: t(`errors.${item.error}`) })
                  : t("offlineData.queue.pending")}
              </span>
              {item.status === "failed" && (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => offlineDb().then((db) => db.offlineQueue.delete(item.id!))}
                >
                  {t("offlineData.queue.discard")}
                </button>
              )}
            </li>
          ))}
        </ul>
        {pending > 0 && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => syncOfflineQueue()}
          >
            {t("offlineData.queue.syncNow")}
          </button>
        )}
      </div>
    </details>
  );
}
