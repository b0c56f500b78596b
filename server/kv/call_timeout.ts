/**
 * Time limits on the calls to a remote KV. Deno's KV Connect client retries a KV it cannot
 * reach for as long as it takes, so without a limit every request would hang while denokv (or
 * Deno Deploy KV) is down, and clients would time out one by one. With this wrapper a call that
 * has not answered in time fails with 503 `kv_unavailable`, which the error funnel turns into a
 * clear reply; the client reconnects by itself once the KV is back.
 *
 * A commit that timed out may still land: the 503 says the outcome is unknown, and writes that
 * must not run twice carry an Idempotency-Key. Watches are long-lived and are not limited.
 */
import { AppError } from "../errors.ts";
import { proxyKv } from "./kv_proxy.ts";

const unavailable = () => new AppError("kv_unavailable", 503);

/** `promise`, or a 503 `kv_unavailable` after `ms`; a late rejection is observed, never thrown. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable()), ms);
  });
  promise.catch(() => {}); // the caller gets the timeout; the KV's own error may come later
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Wraps a list iterator so each page it fetches is limited too. */
function limitIterator<T>(iter: Deno.KvListIterator<T>, ms: number): Deno.KvListIterator<T> {
  const proxy: Deno.KvListIterator<T> = new Proxy(iter, {
    get(target, prop) {
      if (prop === "next") return () => within(target.next(), ms);
      if (prop === Symbol.asyncIterator) return () => proxy;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return proxy;
}

/** A KV handle whose calls (reads, writes, commits, list pages) fail after `ms` with 503. */
export function withCallTimeout(kv: Deno.Kv, ms: number): Deno.Kv {
  return proxyKv(kv, () => ({ commit: (commit) => within(commit(), ms) }), (prop, real) => {
    switch (prop) {
      case "list":
        return (...args) => limitIterator(real(...args) as Deno.KvListIterator<unknown>, ms);
      case "get":
      case "getMany":
      case "set":
      case "delete":
      case "enqueue":
        return (...args) => within(real(...args) as Promise<unknown>, ms);
      default:
        return real;
    }
  });
}
