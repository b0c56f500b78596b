/**
 * The offline store and queue as a test sees them: the queue indicator, the home editor's
 * "queued" card, and the IndexedDB tables read straight from the page (client/offline/db.ts).
 */
import { PageObject } from "./page_object.ts";

export class OfflineQueue extends PageObject {
  /** The pill listing writes that wait to be sent. */
  readonly indicator = this.page.getByTestId("offline-queue");
  /** The home editor's "Paste queued" card. */
  readonly queuedPaste = this.page.getByRole("status").filter({ hasText: "Paste queued" });

  /** Every row of one table of the `cubby-offline` IndexedDB database. */
  async table<T = Record<string, unknown>>(name: string): Promise<T[]> {
    return await this.page.evaluate((store) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open("cubby-offline");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(store)) {
            db.close();
            return resolve([]);
          }
          const req = db.transaction(store).objectStore(store).getAll();
          req.onsuccess = () => {
            db.close();
            resolve(req.result as T[]);
          };
          req.onerror = () => reject(req.error);
        };
      }), name);
  }
}
