/**
 * A KV handle that changes some of its calls and passes the rest to the real one: what the
 * wrappers around a handle (time limits on a remote KV; in tests, KV Connect's limits and call
 * counting) have in common. An atomic operation's builder calls chain on the proxy, so a
 * wrapper sees every check and mutation and then the commit.
 */

/** Any KV method, bound to the real handle. */
export type KvMethod = (...args: unknown[]) => unknown;

/** What a wrapper does around one atomic operation (one object per `atomic()` call). */
export type AtomicHooks = {
  /** Runs the commit; `commit` is the real one. */
  commit(commit: () => Promise<Deno.KvCommitResult | Deno.KvCommitError>): Promise<
    Deno.KvCommitResult | Deno.KvCommitError
  >;
  /** Sees a builder call (`check`, `set`, `sum`...) before it is passed on. */
  call?(prop: string | symbol, args: unknown[]): void;
};

/**
 * Wraps `kv`: every `atomic()` gets the hooks `atomic()` returns, and every other method is the
 * one `method(name, real)` returns (`real` itself to leave it as it is).
 */
export function proxyKv(
  kv: Deno.Kv,
  atomic: () => AtomicHooks,
  method: (prop: string | symbol, real: KvMethod) => KvMethod,
): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "atomic") return () => proxyAtomic(target.atomic(), atomic());
      return method(prop, value.bind(target));
    },
  });
}

function proxyAtomic(op: Deno.AtomicOperation, hooks: AtomicHooks): Deno.AtomicOperation {
  const proxy: Deno.AtomicOperation = new Proxy(op, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "commit") return () => hooks.commit(() => target.commit());
      return (...args: unknown[]) => {
        hooks.call?.(prop, args);
        const out = value.apply(target, args);
        return out === target ? proxy : out;
      };
    },
  });
  return proxy;
}
