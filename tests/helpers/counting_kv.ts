/**
 * A KV handle that counts calls, for tests of what a request costs in KV round trips: every call
 * still goes to the real store, the proxy only tallies them (one `list` counts once, though it
 * may fetch several batches; an atomic operation counts at its commit). With `listed`, the
 * entries that lists hand out are counted too, as "listed": what a list read, not only that it ran.
 */
import { proxyKv } from "../../server/kv/kv_proxy.ts";

/** Calls per method name ("get", "getMany", "commit"...). */
export type Calls = Record<string, number>;

/** Wraps a list iterator so that each entry it hands out bumps "listed". */
function countListed<T>(iter: Deno.KvListIterator<T>, bump: (name: string) => void) {
  const proxy: Deno.KvListIterator<T> = new Proxy(iter, {
    get(target, prop) {
      if (prop === Symbol.asyncIterator) return () => proxy;
      if (prop === "next") {
        return async () => {
          const next = await target.next();
          if (!next.done) bump("listed");
          return next;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return proxy;
}

/**
 * Wraps a KV handle so every method call (and every atomic commit) is counted in `calls`; with
 * `listed`, every entry a list hands out too.
 */
export function countingKv(kv: Deno.Kv, calls: Calls, opts: { listed?: boolean } = {}): Deno.Kv {
  const bump = (name: string) => calls[name] = (calls[name] ?? 0) + 1;
  return proxyKv(
    kv,
    () => ({ commit: (commit) => (bump("commit"), commit()) }),
    (prop, real) => (...args) => {
      if (prop !== "close") bump(String(prop));
      const out = real(...args);
      return prop === "list" && opts.listed
        ? countListed(out as Deno.KvListIterator<unknown>, bump)
        : out;
    },
  );
}

/** The calls made while `fn` runs. */
export async function callsDuring(calls: Calls, fn: () => Promise<void>): Promise<Calls> {
  const before = { ...calls };
  await fn();
  const out: Calls = {};
  for (const [k, v] of Object.entries(calls)) {
    if (v !== (before[k] ?? 0)) out[k] = v - (before[k] ?? 0);
  }
  return out;
}
