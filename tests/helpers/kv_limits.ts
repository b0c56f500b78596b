/**
 * A local KV handle held to the limits of KV Connect (denokv, Deno Deploy KV), which are tighter
 * than a local KV file's: at most 10 checks per atomic write (a local file takes 100) and at
 * most 10 watched keys. Code that passes on a local file but breaks these would fail only once
 * several instances share a remote KV, so every test app runs on a handle that refuses, at the
 * commit, what denokv refuses (denokv_proto's limits.rs).
 */
import { proxyKv } from "../../server/kv/kv_proxy.ts";

/** KV Connect's limits that a local KV file does not enforce as tightly. */
export const KV_CONNECT_LIMITS = { checks: 10, watchedKeys: 10 };

/** Wraps a KV handle so that atomic writes and watches over KV Connect's limits throw. */
export function withKvConnectLimits(kv: Deno.Kv): Deno.Kv {
  const atomic = () => {
    let checks = 0;
    return {
      call: (prop: string | symbol, args: unknown[]) => {
        if (prop === "check") checks += args.length;
      },
      commit: (commit: () => Promise<Deno.KvCommitResult | Deno.KvCommitError>) => {
        if (checks > KV_CONNECT_LIMITS.checks) {
          return Promise.reject(
            new Error(`Too many checks included in atomic write: ${checks} (KV Connect allows 10)`),
          );
        }
        return commit();
      },
    };
  };
  return proxyKv(kv, atomic, (prop, real) => {
    if (prop !== "watch") return real;
    return (...args) => {
      const keys = args[0] as Deno.KvKey[];
      if (keys.length > KV_CONNECT_LIMITS.watchedKeys) {
        throw new Error(`Too many watched keys: ${keys.length} (KV Connect allows 10)`);
      }
      return real(...args);
    };
  });
}
