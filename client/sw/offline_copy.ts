/**
 * Marks what the share cache keeps and what it answers with. A kept reply gets the time it was
 * saved; a reply answered from the cache (the network failed) says it is an offline copy and
 * since when, in a header for API reads and as `<html data-offline-copy>` for documents, so the
 * page can show its "offline copy" note without a second request.
 */
import { OFFLINE_COPY_HEADER, SAVED_AT_HEADER } from "../../shared/pwa.ts";

/** The reply to keep, with the time it was saved. */
export function stampSaved(response: Response, now = Date.now()): Response {
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT_HEADER, String(now));
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** When a kept reply was saved: its stamp, else its Date header, else now. */
export function savedAtOf(response: Response, now = Date.now()): number {
  const stamped = Number(response.headers.get(SAVED_AT_HEADER));
  if (Number.isFinite(stamped) && stamped > 0) return stamped;
  const date = Date.parse(response.headers.get("Date") ?? "");
  return Number.isFinite(date) ? date : now;
}

/** A kept reply as the answer to a request the network could not serve: marked as a copy. */
export async function markOfflineCopy(cached: Response): Promise<Response> {
  const savedAt = savedAtOf(cached);
  const headers = new Headers(cached.headers);
  headers.set(OFFLINE_COPY_HEADER, String(savedAt));
  const init = { status: cached.status, statusText: cached.statusText, headers };
  if (!(headers.get("Content-Type") ?? "").includes("text/html")) {
    return new Response(cached.body, init);
  }
  // The root element is outside what the page hydrates, so marking it changes no markup React
  // or Preact compares.
  const html = (await cached.text()).replace(
    /<html(?=[\s>])/i,
    `<html data-offline-copy="${savedAt}"`,
  );
  headers.delete("Content-Length");
  return new Response(html, init);
}
