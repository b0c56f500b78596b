/**
 * Messages from the page (shared/pwa.ts SW_MESSAGES). A message that expects an answer gets
 * it on the MessageChannel port it came with, as workbox-window's messageSW expects.
 */
import { SW_MESSAGES } from "../../shared/pwa.ts";
import { BUILD_ID, sw } from "./scope.ts";

/** Starts answering the page's messages. */
export function listenForMessages() {
  sw.addEventListener("message", (event) => {
    const type = (event.data as { type?: string } | null)?.type;
    const reply = (value: unknown) => event.ports[0]?.postMessage(value);
    switch (type) {
      case SW_MESSAGES.skipWaiting:
        event.waitUntil(sw.skipWaiting());
        break;
      case SW_MESSAGES.getVersion:
        reply({ build: BUILD_ID });
        break;
    }
  });
}
