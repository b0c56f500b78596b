/**
 * A memo of KV reads that one request makes several times over: the mount list and storage
 * config records, which a WebDAV PUT or an explorer call reads for the target, its parent, the
 * write and the index update. Inside `withRequestMemo` the first read of a name is shared by
 * the rest of the request; outside it (background work, tests of a service alone) every read
 * goes to KV.
 *
 * Why this is safe with several instances: nothing outlives the request, and a request already
 * acts on one reading of the mount table. Work started by a request that runs on after it (a
 * copy task) inherits the scope, so entries also expire after MEMO_TTL_MS, and writers forget
 * what they change, so a request that changes a mount reads the new one.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** How long one read is shared, at most (for work that outlives its request). */
const MEMO_TTL_MS = 1_000;

type Memo = Map<string, { at: number; value: Promise<unknown> }>;

const scope = new AsyncLocalStorage<Memo>();

/** Runs `fn` with a fresh memo: the reads it makes through `memoized` are shared. */
export function withRequestMemo<T>(fn: () => T): T {
  return scope.run(new Map(), fn);
}

/**
 * `load()`'s result, shared under `name` by the rest of the current request (one call when
 * there is no request scope). A failed load is not kept. Callers must not mutate the value.
 */
export function memoized<T>(name: string, load: () => Promise<T>): Promise<T> {
  const memo = scope.getStore();
  if (!memo) return load();
  const now = Date.now();
  const hit = memo.get(name);
  if (hit && now - hit.at < MEMO_TTL_MS) return hit.value as Promise<T>;
  const value = load();
  memo.set(name, { at: now, value });
  value.catch(() => {
    if (memo.get(name)?.value === value) memo.delete(name);
  });
  return value;
}

/** Forgets the current request's reads whose names start with `prefix` (after a write). */
export function forgetMemoized(prefix: string): void {
  const memo = scope.getStore();
  if (!memo) return;
  for (const name of memo.keys()) if (name.startsWith(prefix)) memo.delete(name);
}
