/**
 * Group commit for checked writes: the commits that arrive while earlier ones are being made go
 * together in the next. Each commit on a local KV is a SQLite write transaction, and on a remote
 * one a network round trip; most of a small commit's cost is that, not its keys. A lone commit
 * goes at once; under load, the commits of the requests that arrived meanwhile share one.
 *
 * How many commits may be in flight at once: one on a local KV file (SQLite makes one write at a
 * time anyway, so the others gather behind it), 16 on a remote KV, where a commit waits mostly
 * for the network and several in flight keep its throughput (groups form once 16 are).
 *
 * A caller builds its operation as usual (`atomic()` returns a builder with KV's methods) and
 * gets its own result from `commit()`. The group keeps every caller's meaning:
 * - KV checks every caller's checks before any write, so a caller whose check reads a key that
 *   an earlier caller in the group writes would see the key as it was before that write. Such a
 *   caller starts the next group instead (as it would have come after it alone).
 * - When the group's commit fails with an error other than KV refusing it (a remote KV that timed
 *   out), its outcome is unknown, and every caller gets that error, as from its own commit.
 * - When the group's commit fails a check, no write of it was made. The callers whose checks fail
 *   on a read right after get "failed" (alone, their commits would fail at that moment too), and
 *   the others go again together. A stranger's failing check costs the others one read and one
 *   commit more, never their writes. When no check is found failing (it changed back meanwhile),
 *   or KV refuses the group (too large), each caller commits again alone, in order: each gets
 *   exactly the answer it would have had.
 * - In a group, callers go in arrival order: sets of one key by two callers leave the later one's
 *   value, sums add up. Groups in flight at once race as separate commits always did.
 * - A group stays within KV's limits of one commit: 10 checks on a remote KV (KV Connect's limit;
 *   a paste create has 3, so 3 creates share a commit), 100 on a local file (`localFile`), 1000
 *   mutations and the sizes of commit_batcher.ts. An operation that uses `enqueue` or `mutate`
 *   commits alone.
 */
import { addSizes, fitsWith, NOTHING } from "./commit_batcher.ts";
import { type Result, type Size, WrittenOperation } from "./written_operation.ts";

/** What a handle allows: checks in one commit (KV's limit) and commits in flight at once. */
export type GroupLimits = { checks: number; inFlight: number };

/** KV Connect's limits (denokv, Deno Deploy KV), and a local KV file's. */
export const LIMITS: Record<"remote" | "localFile", GroupLimits> = {
  remote: { checks: 10, inFlight: 16 },
  localFile: { checks: 100, inFlight: 1 },
};

const within = (s: Size, maxChecks: number) => s.checks <= maxChecks && fitsWith(s, NOTHING);

const plus = (a: Size, b: Size): Size => ({ ...addSizes(a, b), checks: a.checks + b.checks });

type Waiting = { op: WrittenOperation; resolve: (r: Result) => void; reject: (e: unknown) => void };

/** Groups the commits made through it on one KV handle (see the module comment). */
export class CommitGroups {
  private waiting: Waiting[] = [];
  private inFlight = 0;

  constructor(private kv: Deno.Kv, private limits: GroupLimits = LIMITS.remote) {}

  /** A new atomic operation whose `commit()` goes in a group. */
  atomic(): Deno.AtomicOperation {
    return new WrittenOperation(
      (op) => this.submit(op),
      this.kv,
    ) as unknown as Deno.AtomicOperation;
  }

  /** Commits `op` with whatever else waits (WrittenOperation.commit). */
  private submit(op: WrittenOperation): Promise<Result> {
    // Too large for any group: KV's own answer, as from a commit of its own.
    if (!within(op.size, this.limits.checks)) return this.alone(op);
    return new Promise((resolve, reject) => {
      this.waiting.push({ op, resolve, reject });
      this.pump();
    });
  }

  private alone(op: WrittenOperation): Promise<Result> {
    try {
      return op.applyTo(this.kv.atomic()).commit();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Starts groups of what waits while fewer than `limits.inFlight` are in flight. */
  private pump(): void {
    while (this.inFlight < this.limits.inFlight && this.waiting.length > 0) {
      const group = this.waiting.splice(0, groupLength(this.waiting, this.limits.checks));
      this.inFlight++;
      const done = () => {
        this.inFlight--;
        this.pump();
      };
      this.commitGroup(group).then(done, done);
    }
  }

  /** Commits a group; every caller's promise settles (commitGroup itself never rejects). */
  private async commitGroup(group: Waiting[]): Promise<void> {
    if (group.length === 0) return;
    if (group.length === 1) {
      await this.alone(group[0].op).then(group[0].resolve, group[0].reject);
      return;
    }
    let res: Result | null = null;
    try {
      const op = this.kv.atomic();
      for (const w of group) w.op.applyTo(op);
      res = await op.commit();
    } catch (err) {
      // Only KV's refusal of the commit as given (a size it counts differently: TypeError) means
      // nothing was written; then each goes alone, below. Any other error (a remote KV that timed
      // out) leaves the outcome unknown: the commit may have landed, and a caller who tried again
      // would find its own keys taken. Every caller gets the error, as from a commit of its own.
      if (!(err instanceof TypeError)) {
        for (const w of group) w.reject(err);
        return;
      }
    }
    if (res?.ok) {
      for (const w of group) w.resolve(res);
      return;
    }
    if (res) {
      // A check failed. Those whose checks fail now get their answer without a commit (alone,
      // theirs would fail now too); the rest go again together. Committing each alone instead
      // would let one caller with a bad check (a slug it knows is taken) cost every other caller
      // in its group a commit of its own.
      const failing = await this.failingChecks(group).catch(() => null);
      if (failing && failing.size > 0) {
        for (const w of failing) w.resolve({ ok: false });
        await this.commitGroup(group.filter((w) => !failing.has(w)));
        return;
      }
    }
    for (const w of group) await this.alone(w.op).then(w.resolve, w.reject);
  }

  /** The callers of `group` with a check that does not hold now (KV read 10 keys at a time). */
  private async failingChecks(group: Waiting[]): Promise<Set<Waiting>> {
    const checks = group.flatMap((w) => w.op.checks().map((c) => ({ w, c })));
    const failing = new Set<Waiting>();
    for (let i = 0; i < checks.length; i += 10) {
      const part = checks.slice(i, i + 10);
      const now = await this.kv.getMany(part.map(({ c }) => c.key));
      part.forEach(({ w, c }, j) => {
        if (now[j].versionstamp !== c.versionstamp) failing.add(w);
      });
    }
    return failing;
  }
}

/**
 * How many of the first waiting callers go in one group: in order, while they fit one commit and
 * none checks a key that one before it in the group writes (nor writes one it checks).
 */
function groupLength(waiting: Waiting[], maxChecks: number): number {
  let size: Size = { ...NOTHING, checks: 0 };
  const checked = new Set<string>();
  const written = new Set<string>();
  let n = 0;
  for (; n < waiting.length; n++) {
    const op = waiting[n].op;
    const next = plus(size, op.size);
    if (n > 0 && !within(next, maxChecks)) break;
    if (n > 0 && (meets(op.checked, written) || meets(op.written, checked))) break;
    size = next;
    for (const k of op.checked) checked.add(k);
    for (const k of op.written) written.add(k);
  }
  return Math.max(1, n);
}

const meets = (a: Set<string>, b: Set<string>) => {
  for (const x of a) if (b.has(x)) return true;
  return false;
};

const groups = new WeakMap<Deno.Kv, CommitGroups>();
const localFiles = new WeakSet<Deno.Kv>();

/** Marks a handle as a local KV file's (server/kv/open.ts): LIMITS.localFile apply to it. */
export function localFile(kv: Deno.Kv): Deno.Kv {
  localFiles.add(kv);
  return kv;
}

/**
 * The commit groups of a KV handle (one per handle, so all its grouped commits go together),
 * held to KV Connect's limits unless the handle is a local file's.
 */
export function commitGroupsOf(kv: Deno.Kv): CommitGroups {
  let g = groups.get(kv);
  if (!g) {
    groups.set(kv, g = new CommitGroups(kv, localFiles.has(kv) ? LIMITS.localFile : LIMITS.remote));
  }
  return g;
}
