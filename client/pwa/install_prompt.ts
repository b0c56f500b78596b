/**
 * The install card's state (docs/PRODUCT.md §4.4: not installed, installable, installed). Chrome's
 * beforeinstallprompt event is kept for later; the card may show when the app is installable,
 * not installed (display-mode standalone, iOS navigator.standalone, or appinstalled) and not
 * dismissed in the last INSTALL_PROMPT_SNOOZE_MS. The check runs every INSTALL_CHECK_INTERVAL_MS
 * after load. The listeners are attached before the app renders, since the event may come early.
 * iOS Safari has no such event and installs only through Share → Add to Home Screen, so there
 * the card explains those steps instead (`manual`), on the same schedule.
 */
import { createStore, useStore } from "./store.ts";
import { INSTALL_CHECK_INTERVAL_MS, INSTALL_PROMPT_SNOOZE_MS } from "../../shared/pwa.ts";

/** Chrome's install prompt event (not in the DOM typings). */
type BeforeInstallPromptEvent = Event & {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
};

export type InstallState = {
  status: "not_installed" | "installable" | "installed";
  showCard: boolean;
  /** True on iOS: the card shows the Add to Home Screen steps, not an install button. */
  manual: boolean;
};

/** localStorage key of the time the card was last dismissed. */
export const INSTALL_DISMISSED_KEY = "pwaInstallDismissedAt";

const INITIAL: InstallState = { status: "not_installed", showCard: false, manual: false };
const store = createStore<InstallState>(INITIAL);
let deferred: BeforeInstallPromptEvent | null = null;
let started = false;

function isStandalone(): boolean {
  const nav = navigator as Navigator & { standalone?: boolean };
  return globalThis.matchMedia?.("(display-mode: standalone)").matches || nav.standalone === true;
}

/** iPhone, iPod or iPad (iPadOS reports itself as a Mac with touch). */
function isIos(): boolean {
  return /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (navigator.userAgent.includes("Macintosh") && navigator.maxTouchPoints > 1);
}

function isSnoozed(now = Date.now()): boolean {
  const at = Number(localStorage.getItem(INSTALL_DISMISSED_KEY));
  return Number.isFinite(at) && at > 0 && now - at < INSTALL_PROMPT_SNOOZE_MS;
}

function check() {
  if (isStandalone()) {
    store.set({ status: "installed", showCard: false });
    return;
  }
  if (store.get().status === "installed") return;
  const manual = deferred === null && isIos();
  const installable = deferred !== null || manual;
  store.set({
    status: installable ? "installable" : "not_installed",
    showCard: installable && !isSnoozed(),
    manual,
  });
}

/** Starts listening for the install prompt and checking every few seconds. */
export function watchInstallPrompt() {
  if (started) return;
  started = true;
  globalThis.addEventListener("beforeinstallprompt", (e) => {
    e.preventDefault();
    deferred = e as BeforeInstallPromptEvent;
  });
  globalThis.addEventListener("appinstalled", () => {
    deferred = null;
    store.set({ status: "installed", showCard: false });
  });
  setInterval(check, INSTALL_CHECK_INTERVAL_MS);
}

/** Shows the browser's install dialog; a refusal counts as a dismissal. */
export async function installApp() {
  const prompt = deferred;
  if (!prompt) return;
  deferred = null;
  store.set({ showCard: false });
  await prompt.prompt();
  const { outcome } = await prompt.userChoice;
  if (outcome === "accepted") store.set({ status: "installed" });
  else dismissInstall();
}

/** Hides the card for INSTALL_PROMPT_SNOOZE_MS. */
export function dismissInstall() {
  localStorage.setItem(INSTALL_DISMISSED_KEY, String(Date.now()));
  store.set({ showCard: false });
}

/** React hook: the install state. */
export function useInstallState(): InstallState {
  return useStore(store, INITIAL);
}
