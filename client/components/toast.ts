/** A global toast queue: toast.success/error/info from anywhere; <Toaster/> shows them. */
import { useSyncExternalStore } from "react";

export type ToastKind = "success" | "error" | "info";
export type ToastItem = { id: number; kind: ToastKind; text: string };

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/**
 * How long a toast stays: long enough to read a sentence on a slow device (WCAG 2.2.1 asks for
 * time to read; 3 s was too short for the longer confirmations).
 */
const TOAST_MS = 5000;

function push(kind: ToastKind, text: string, ms = TOAST_MS): number {
  const id = nextId++;
  items = [...items, { id, kind, text }];
  emit();
  if (ms > 0) setTimeout(() => dismissToast(id), ms);
  return id;
}

/** Removes a toast. */
export function dismissToast(id: number) {
  items = items.filter((t) => t.id !== id);
  emit();
}

export const toast = {
  success: (text: string, ms?: number) => push("success", text, ms),
  error: (text: string, ms = TOAST_MS) => push("error", text, ms),
  info: (text: string, ms?: number) => push("info", text, ms),
};

const EMPTY: ToastItem[] = [];

/** React hook: the visible toasts. */
export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => items,
    () => EMPTY,
  );
}
