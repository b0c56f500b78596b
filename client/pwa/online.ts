/** The browser's online state as a React hook, plus the toast shown on going offline. */
import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../components/toast.ts";
import { OFFLINE_TOAST_MS } from "../../shared/pwa.ts";

function subscribe(listener: () => void) {
  globalThis.addEventListener("online", listener);
  globalThis.addEventListener("offline", listener);
  return () => {
    globalThis.removeEventListener("online", listener);
    globalThis.removeEventListener("offline", listener);
  };
}

/** React hook: false while the browser is offline; the server render assumes online. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}

/** Shows a toast for OFFLINE_TOAST_MS each time the browser goes offline. */
export function useOfflineToast() {
  const { t } = useTranslation();
  useEffect(() => {
    const onOffline = () => toast.info(t("pwa.offline.toast"), OFFLINE_TOAST_MS);
    globalThis.addEventListener("offline", onOffline);
    return () => globalThis.removeEventListener("offline", onOffline);
  }, [t]);
}
