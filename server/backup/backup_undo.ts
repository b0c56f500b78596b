/**
 * The undo area of a restore (`["restore_undo", n]`): before a restore writes anything, the
 * journal (backup_journal.ts) copies here the current value, or the absence, of every key the
 * restore will touch. A rollback writes those back; absent keys are packed several to an entry.
 */
import { keys } from "../kv/keys.ts";
import { BATCH_MUTATIONS, type Batcher, type Mutation, sizeOf } from "./backup_batches.ts";

type UndoEntry =
  | { kind: "absent"; keys: Deno.KvKey[] }
  | { kind: "value"; key: Deno.KvKey; value: unknown }
  | { kind: "u64"; key: Deno.KvKey; value: bigint };

/** Absent keys are packed into one undo entry, up to this estimated size. */
const ABSENT_PACK_BYTES = 30_000;
/** Keys read per `getMany`. */
const READ_BATCH = 10;

/**
 * Writes the undo entries of every key the mutations touch through `batch` (the caller
 * flushes it). `progress` hears how many mutations are covered so far. Returns the entry count.
 */
export async function captureUndo(
  kv: Deno.Kv,
  mutations: Mutation[],
  batch: Batcher,
  progress: (done: number) => void,
): Promise<number> {
  let n = 0;
  let absent: Deno.KvKey[] = [];
  let absentBytes = 0;
  const flushAbsent = async () => {
    if (!absent.length) return;
    const entry: UndoEntry = { kind: "absent", keys: absent };
    await batch.add({ key: keys.restoreUndo(n++), value: entry }, absentBytes);
    absent = [];
    absentBytes = 0;
  };
  for (let i = 0; i < mutations.length; i += READ_BATCH) {
    const slice = mutations.slice(i, i + READ_BATCH).map((m) => m.key);
    for (const e of await kv.getMany(slice)) {
      if (e.versionstamp === null) {
        absent.push(e.key);
        absentBytes += sizeOf(e.key);
        if (absentBytes > ABSENT_PACK_BYTES) await flushAbsent();
        continue;
      }
      const entry: UndoEntry = e.value instanceof Deno.KvU64
        ? { kind: "u64", key: e.key, value: e.value.value }
        : { kind: "value", key: e.key, value: e.value };
      await batch.add({ key: keys.restoreUndo(n++), value: entry }, sizeOf(entry));
    }
    progress(Math.min(i + READ_BATCH, mutations.length));
  }
  await flushAbsent();
  return n;
}

/** The writes that put back what the undo area holds, one group per undo entry. */
export async function* undoMutations(kv: Deno.Kv): AsyncGenerator<Mutation[]> {
  for await (const e of kv.list<UndoEntry>({ prefix: keys.restoreUndoPrefix() })) {
    const u = e.value;
    if (u.kind === "absent") yield u.keys.map((key) => ({ key, delete: true as const }));
    else yield [{ key: u.key, value: u.kind === "u64" ? new Deno.KvU64(u.value) : u.value }];
  }
}

/** True when the undo area holds anything. */
export async function hasUndo(kv: Deno.Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: keys.restoreUndoPrefix() }, { limit: 1 })) return true;
  return false;
}

/** Deletes the whole undo area, in commits of BATCH_MUTATIONS keys. */
export async function clearUndo(kv: Deno.Kv): Promise<void> {
  let op = kv.atomic();
  let count = 0;
  for await (const e of kv.list({ prefix: keys.restoreUndoPrefix() })) {
    op.delete(e.key);
    if (++count === BATCH_MUTATIONS) {
      await op.commit();
      op = kv.atomic();
      count = 0;
    }
  }
  if (count) await op.commit();
}
