/**
 * Group reads: the hot lookups' reads that arrive together go to KV together. Every `getMany`
 * is one call into KV (on a local KV a trip to its SQLite thread and a read transaction; on a
 * remote one a network round trip), and its fixed cost is most of a small read's. Here a read
 * waits until the requests that reached the server in the same turn of the event loop have asked
 * for theirs (`setImmediate`: after the I/O of that turn, before the next), then they go as one
 * `getMany` per 10 distinct keys, and a key asked for by many (a hot share's record) is read
 * once. A lone read waits for nothing but the end of its own turn.
 *
 * Each caller still gets a consistent snapshot of all its keys (one caller's keys are never split
 * across two `getMany` calls), and the snapshot is taken after the caller asked: a group's read
 * starts only once every read in it was asked for, so a write that finished before a caller asked
 * (on any instance) is in what the caller reads, exactly as with a read of its own.
 *
 * Callers of the same key get the same entry object: treat what a group read returns as read-only
 * (nothing in the server changes a record it read; an edit copies it first).
 */
import { setImmediate } from "node:timers";
import { keyName } from "./key_names.ts";

/** KV's limit of keys per `getMany`. */
const KEYS_PER_READ = 10;

type Asked = {
  keys: Deno.KvKey[];
  /** The keys' names (key_names.ts). */
  names: string[];
  resolve: (entries: Deno.KvEntryMaybe<unknown>[]) => void;
  reject: (err: unknown) => void;
};

/** One `getMany` to make: its distinct keys and, per caller, where its keys are among them. */
type Read = { keys: Deno.KvKey[]; callers: { asked: Asked; at: number[] }[] };

/** Groups the reads made through it on one KV handle (see the module comment). */
export class ReadGroups {
  private asked: Asked[] = [];
  private scheduled = false;

  constructor(private kv: Deno.Kv) {}

  /** The entry at `key`, read in a group. */
  async get<T>(key: Deno.KvKey): Promise<Deno.KvEntryMaybe<T>> {
    return (await this.getMany<T>([key]))[0];
  }

  /** The entries at `keys` (at most 10), in order, all from one snapshot, read in a group. */
  getMany<T = unknown>(keys: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<T>[]> {
    // More than KV takes in one read: KV's own error, as from a read of its own.
    if (keys.length > KEYS_PER_READ || keys.length === 0) {
      return this.getManyOf(keys) as Promise<Deno.KvEntryMaybe<T>[]>;
    }
    let names: string[];
    try {
      names = keys.map(keyName);
    } catch (err) {
      return Promise.reject(err); // not a key: refused here, not in the flush
    }
    return new Promise<Deno.KvEntryMaybe<unknown>[]>((resolve, reject) => {
      this.asked.push({ keys, names, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }) as Promise<Deno.KvEntryMaybe<T>[]>;
  }

  /** Reads what was asked for since the last flush: callers packed into reads of 10 keys. */
  private flush(): void {
    this.scheduled = false;
    const asked = this.asked;
    this.asked = [];
    let reads: Read[];
    try {
      reads = pack(asked);
    } catch (err) {
      for (const a of asked) a.reject(err); // never thrown out of the timer's callback
      return;
    }
    for (const read of reads) this.read(read);
  }

  /**
   * Makes one grouped read. When KV refuses it with more than one caller in it, each caller reads
   * alone: a key KV refuses (too large) fails only the caller that asked for it.
   */
  private read(read: Read): void {
    this.getManyOf(read.keys).then(
      (entries) => {
        for (const { asked, at } of read.callers) asked.resolve(at.map((i) => entries[i]));
      },
      (err) => {
        // Only KV's refusal (TypeError: a key it does not take) may be one caller's doing; any
        // other error (a remote KV unreachable or too slow) is everyone's, without a retry.
        if (read.callers.length === 1 || !(err instanceof TypeError)) {
          for (const { asked } of read.callers) asked.reject(err);
        } else {
          for (const { asked } of read.callers) {
            this.getManyOf(asked.keys).then(asked.resolve, asked.reject);
          }
        }
      },
    );
  }

  /** `kv.getMany`, with an error thrown at once (a closed handle) as a rejection. */
  private getManyOf(keys: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<unknown>[]> {
    try {
      return this.kv.getMany(keys);
    } catch (err) {
      return Promise.reject(err);
    }
  }
}

/** Packs callers, in order, into reads of at most 10 distinct keys; one caller's keys stay in one. */
function pack(asked: Asked[]): Read[] {
  const reads: Read[] = [];
  let read: Read = { keys: [], callers: [] };
  let index = new Map<string, number>();
  for (const a of asked) {
    const names = a.names;
    const fresh = new Set(names.filter((n) => !index.has(n))).size;
    if (read.keys.length + fresh > KEYS_PER_READ) {
      reads.push(read);
      read = { keys: [], callers: [] };
      index = new Map();
    }
    const at = names.map((name, i) => {
      let j = index.get(name);
      if (j === undefined) {
        j = read.keys.length;
        index.set(name, j);
        read.keys.push(a.keys[i]);
      }
      return j;
    });
    read.callers.push({ asked: a, at });
  }
  if (read.callers.length > 0) reads.push(read);
  return reads;
}

const groups = new WeakMap<Deno.Kv, ReadGroups>();

/** The read groups of a KV handle (one per handle, so all its hot lookups group together). */
export function readGroupsOf(kv: Deno.Kv): ReadGroups {
  let g = groups.get(kv);
  if (!g) groups.set(kv, g = new ReadGroups(kv));
  return g;
}
