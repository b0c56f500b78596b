/**
 * The offline store and queue as a test sees them: the queue indicator, the home editor's
 * "queued" card, and the IndexedDB tables read straight from the page (client/offline/db.ts).
 */
import type { Page } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class OfflineQueue extends PageObject {
  /** The pill listing writes that wait to be sent. */
  readonly indicator = this.page.getByTestId("offline-queue");
  /** The home editor's "Paste queued" card. */
  readonly queuedPaste = this.page.getByRole("status").filter({ hasText: "Paste queued" });

  /** Every row of one table of the `cubby-offline` IndexedDB database. */
  async table<T = Record<string, unknown>>(name: string): Promise<T[]> {
    return await readOfflineTable(this.page, name, "getAll") as T[];
  }
}

/**
 * Reads one table of the page's `cubby-offline` IndexedDB database: its rows (`getAll`) or its
 * keys (`getAllKeys`); a table that does not exist yet reads as empty.
 */
export async function readOfflineTable(
  page: Page,
  table: string,
  read: "getAll" | "getAllKeys",
): Promise<unknown[]> {
  return await page.evaluate(({ table, read }) =>
    new Promise<unknown[]>((resolve, reject) => {
      const open = indexedDB.open("cubby-offline");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains(table)) {
          db.close();
          return resolve([]);
        }
        const req = db.transaction(table).objectStore(table)[read]();
        req.onsuccess = () => {
          db.close();
          resolve(req.result);
        };
        req.onerror = () => reject(req.error);
      };
    }), { table, read });
}
