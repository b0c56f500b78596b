/**
 * What the OS shared into the app (the manifest's share_target): the service worker stores it in
 * the offline store's `settings` table (files as Blobs, which IndexedDB keeps) and redirects to
 * the editor or the upload screen, which take it from there. The server fallback, used when no
 * worker controls the page, passes text in the query string instead.
 */
import { db } from "./db.ts";

/** The settings-table key of the payload waiting to be picked up. */
export const SHARED_PAYLOAD_KEY = "sharedPayload";

export type SharedFile = { name: string; type: string; lastModified: number; blob: Blob };
export type SharedPayload = {
  title: string;
  text: string;
  url: string;
  files: SharedFile[];
  receivedAt: number;
};

/** Stores a shared payload, replacing an older one that was never picked up. */
export async function saveSharedPayload(payload: SharedPayload): Promise<void> {
  await db.settings.put({ key: SHARED_PAYLOAD_KEY, value: payload });
}

/** Takes the waiting payload out of the store (null when there is none). */
export async function takeSharedPayload(): Promise<SharedPayload | null> {
  return await db.transaction("rw", db.settings, async () => {
    const entry = await db.settings.get(SHARED_PAYLOAD_KEY);
    if (!entry) return null;
    await db.settings.delete(SHARED_PAYLOAD_KEY);
    return entry.value as SharedPayload;
  });
}

/** The editor text for shared title, text and link: each once, in that order. */
export function sharedText(p: { title?: string; text?: string; url?: string }): string {
  const parts: string[] = [];
  for (const value of [p.title, p.text, p.url]) {
    const v = value?.trim();
    if (v && !parts.some((x) => x.includes(v))) parts.push(v);
  }
  return parts.join("\n\n");
}
