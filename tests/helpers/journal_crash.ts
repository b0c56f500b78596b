/**
 * Standing in for a restore whose process died part-way, without killing a process: a KV handle
 * whose commits are watched, so the crash lands exactly in the phase a test asks for.
 */

/**
 * `kv`, except that right after the first commit that leaves the restore journal's marker in
 * `phase` with some progress, the marker is written again behind the journal's back: the
 * journal's next commit fails and it stops where it is, without cleaning up, as a dead process
 * would. The check runs inside the journal's own commits, so it cannot miss a phase that a
 * polling loop would race past on a busy machine. `crashed()` tells whether that happened.
 */
export function crashingJournalKv(
  kv: Deno.Kv,
  phase: "capturing" | "applying",
): { kv: Deno.Kv; crashed: () => boolean } {
  let crashed = false;
  const afterCommit = async () => {
    if (crashed) return;
    const m = await kv.get<{ phase: string; done: number }>(["restore_journal"]);
    if (m.value?.phase === phase && m.value.done > 0) {
      crashed = true;
      await kv.set(["restore_journal"], m.value);
    }
  };
  const watched = new Proxy(kv, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (prop !== "atomic") return typeof v === "function" ? v.bind(target) : v;
      return () => {
        const op = target.atomic();
        const proxy: Deno.AtomicOperation = new Proxy(op, {
          get(o, p) {
            const f = Reflect.get(o, p, o);
            if (p === "commit") {
              return async () => {
                const res = await o.commit();
                await afterCommit();
                return res;
              };
            }
            if (typeof f !== "function") return f;
            return (...args: unknown[]) => {
              const out = f.apply(o, args);
              return out === o ? proxy : out;
            };
          },
        });
        return proxy;
      };
    },
  });
  return { kv: watched, crashed: () => crashed };
}
