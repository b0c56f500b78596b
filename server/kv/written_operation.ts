/**
 * An atomic operation written down instead of built (commit_groups.ts): KV's builder methods
 * record each call, the keys it checks and writes, and its size against a commit's limits, so
 * that it can be made later on its own or together with others in one commit.
 */
import { type CommitSize, keySizeOf, NOTHING, valueSizeOf } from "./commit_batcher.ts";
import { keyName } from "./key_names.ts";

/** A commit's answer. */
export type Result = Deno.KvCommitResult | Deno.KvCommitError;

/** One builder call, to be made again on the real operation. */
type Call = { method: "check" | "set" | "sum" | "min" | "max" | "delete"; args: unknown[] };

/** What an operation takes of a commit's limits. */
export type Size = CommitSize & { checks: number };

/**
 * An operation written down. `submit` makes its commit; one that uses `enqueue` or `mutate`
 * switches to a real operation on `kv` and commits alone.
 */
export class WrittenOperation {
  readonly calls: Call[] = [];
  /** Names of the keys its checks read and of the keys it writes. */
  readonly checked = new Set<string>();
  readonly written = new Set<string>();
  readonly size: Size = { ...NOTHING, checks: 0 };
  /** It holds an `enqueue` or `mutate`: it commits alone, on a real operation built directly. */
  private direct: Deno.AtomicOperation | null = null;

  constructor(
    private submit: (op: WrittenOperation) => Promise<Result>,
    private kv: Deno.Kv,
  ) {}

  check(...checks: Deno.AtomicCheck[]): this {
    if (this.direct) {
      this.direct.check(...checks);
      return this;
    }
    for (const c of checks) {
      this.calls.push({ method: "check", args: [c] });
      this.checked.add(keyName(c.key));
      this.size.checks++;
      this.size.keyBytes += keySizeOf(c.key);
    }
    return this;
  }

  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): this {
    return this.write(
      "set",
      key,
      options === undefined ? [key, value] : [key, value, options],
      value,
    );
  }

  sum(key: Deno.KvKey, n: bigint): this {
    return this.write("sum", key, [key, n]);
  }

  min(key: Deno.KvKey, n: bigint): this {
    return this.write("min", key, [key, n]);
  }

  max(key: Deno.KvKey, n: bigint): this {
    return this.write("max", key, [key, n]);
  }

  delete(key: Deno.KvKey): this {
    return this.write("delete", key, [key]);
  }

  mutate(...mutations: Deno.KvMutation[]): this {
    this.realOp().mutate(...mutations);
    return this;
  }

  enqueue(value: unknown, options?: Parameters<Deno.AtomicOperation["enqueue"]>[1]): this {
    this.realOp().enqueue(value, options);
    return this;
  }

  commit(): Promise<Result> {
    if (this.direct) return this.direct.commit();
    return this.submit(this);
  }

  /** The checks written down. */
  checks(): Deno.AtomicCheck[] {
    return this.calls.flatMap((c) => c.method === "check" ? [c.args[0] as Deno.AtomicCheck] : []);
  }

  /** Makes the calls on `op`. */
  applyTo(op: Deno.AtomicOperation): Deno.AtomicOperation {
    for (const { method, args } of this.calls) {
      (op[method] as (...a: unknown[]) => unknown).apply(op, args);
    }
    return op;
  }

  private write(method: Call["method"], key: Deno.KvKey, args: unknown[], value?: unknown): this {
    if (this.direct) {
      (this.direct[method] as (...a: unknown[]) => unknown).apply(this.direct, args);
      return this;
    }
    this.calls.push({ method, args });
    this.written.add(keyName(key));
    const k = keySizeOf(key);
    this.size.mutations++;
    this.size.keyBytes += k;
    this.size.bytes += k + valueSizeOf(value);
    return this;
  }

  /** Switches to a real operation, with what was written down so far. */
  private realOp(): Deno.AtomicOperation {
    this.direct ??= this.applyTo(this.kv.atomic());
    return this.direct;
  }
}
