/**
 * A local KV handle held to the limits of KV Connect (denokv, Deno Deploy KV), which are tighter
 * than a local KV file's: at most 10 checks per atomic write (a local file takes 100) and at
 * most 10 watched keys. Code that passes on a local file but breaks these would fail only once
 * several instances share a remote KV, so every test app runs on a handle that refuses, at the
 * commit, what denokv refuses (denokv_proto's limits.rs).
 */

/** KV Connect's limits that a local KV file does not enforce as tightly. */
export const KV_CONNECT_LIMITS = { checks: 10, watchedKeys: 10 };

/** Wraps a KV handle so that atomic writes and watches over KV Connect's limits throw. */
export function withKvConnectLimits(kv: Deno.Kv): Deno.Kv {
  const wrapOp = (op: Deno.AtomicOperation): Deno.AtomicOperation => {
    let checks = 0;
    const proxy: Deno.AtomicOperation = new Proxy(op, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "check") {
          return (...entries: Deno.AtomicCheck[]) => {
            checks += entries.length;
            target.check(...entries);
            return proxy;
          };
        }
        if (prop === "commit") {
          return () => {
            if (checks > KV_CONNECT_LIMITS.checks) {
              return Promise.reject(
                new Error(
                  `Too many checks included in atomic write: ${checks} (KV Connect allows 10)`,
                ),
              );
            }
            return target.commit();
          };
        }
        return (...args: unknown[]) => {
          const out = value.apply(target, args);
          return out === target ? proxy : out;
        };
      },
    });
    return proxy;
  };
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "atomic") return () => wrapOp(target.atomic());
      if (prop === "watch") {
        return (keys: Deno.KvKey[], opts?: { raw?: boolean }) => {
          if (keys.length > KV_CONNECT_LIMITS.watchedKeys) {
            throw new Error(`Too many watched keys: ${keys.length} (KV Connect allows 10)`);
          }
          return target.watch(keys, opts);
        };
      }
      return value.bind(target);
    },
  });
}
