/**
 * A KV handle that counts calls, for tests of what a request costs in KV round trips: every call
 * still goes to the real store, the proxy only tallies them (one `list` counts once, though it
 * may fetch several batches; an atomic operation counts at its commit).
 */
import { proxyKv } from "../../server/kv/kv_proxy.ts";

/** Calls per method name ("get", "getMany", "commit"...). */
export type Calls = Record<string, number>;

/** Wraps a KV handle so every method call (and every atomic commit) is counted in `calls`. */
export function countingKv(kv: Deno.Kv, calls: Calls): Deno.Kv {
  const bump = (name: string) => calls[name] = (calls[name] ?? 0) + 1;
  return proxyKv(
    kv,
    () => ({ commit: (commit) => (bump("commit"), commit()) }),
    (prop, real) => (...args) => {
      if (prop !== "close") bump(String(prop));
      return real(...args);
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
