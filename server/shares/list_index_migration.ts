/**
 * Migration 3: builds the list indexes of share_index.ts for the pastes and files written before
 * them, the search postings of every share and each creator's totals; `recountCreatorTotals`
 * also runs after a restore, which writes records and postings but not counters.
 *
 * It runs under the start-up lease, before this instance serves, so no write of this version
 * races it (older instances are kept from starting by the data format, kv/data_format.ts).
 * Postings are plain sets derived from each record, so a run cut short is simply run again.
 * Each creator's totals are set in one commit checked against the two counters as read before
 * its index was counted: a create or delete in between (each moves a counter in the commit that
 * writes its index entry) makes that creator start over instead of being counted twice.
 */
import { type EntityPrefix, keys, type TotalField } from "../kv/keys.ts";
import { indexedPaste, type PasteRecord } from "./paste_repo.ts";
import { type FileRecord, indexedFile } from "./file_repo.ts";
import { gramRows, type IndexedShare, type IndexRow, type ShareKind } from "./share_index.ts";

export const LIST_INDEX_MIGRATION = { n: 3, name: "share list indexes" } as const;

/** Under KV's limits of 1000 mutations and 80 KiB of keys per commit, with room to spare. */
const MAX_ROWS_PER_COMMIT = 800;
const MAX_KEY_BYTES_PER_COMMIT = 60_000;
const LIST_BATCH = 500;

const SOURCES = {
  paste: { records: "pastes", byCreator: "pastes_by_creator" },
  file: { records: "files", byCreator: "files_by_creator" },
} as const satisfies Record<ShareKind, { records: EntityPrefix; byCreator: EntityPrefix }>;

const encoder = new TextEncoder();
const keyBytes = (key: Deno.KvKey) =>
  key.reduce(
    (n: number, part) => n + 4 + (typeof part === "string" ? encoder.encode(part).length : 9),
    0,
  );

/**
 * Runs migration 3 unless it is recorded; returns true when this call applied it. Throws when
 * a creator's totals keep changing (the next start tries again).
 */
export async function migrateListIndexes(
  kv: Deno.Kv,
  log: (msg: string) => void,
): Promise<boolean> {
  const marker = keys.migrations(LIST_INDEX_MIGRATION.n);
  if ((await kv.get(marker)).versionstamp !== null) return false;
  const pastes = await postAll<PasteRecord>(kv, "paste", indexedPaste);
  const files = await postAll<FileRecord>(kv, "file", indexedFile);
  await recountCreatorTotals(kv);
  const applied = { name: LIST_INDEX_MIGRATION.name, applied_at: new Date().toISOString() };
  await kv.atomic().check({ key: marker, versionstamp: null }).set(marker, applied).commit();
  log(`Migration 3 applied: list indexes of ${pastes} paste(s) and ${files} file share(s)`);
  return true;
}

/** Writes the search postings of every share of a kind; returns how many shares. */
async function postAll<R>(
  kv: Deno.Kv,
  kind: ShareKind,
  indexed: (rec: R) => IndexedShare,
): Promise<number> {
  let rows: IndexRow[] = [];
  let bytes = 0;
  const flush = async () => {
    const op = kv.atomic();
    for (const row of rows) op.set(row.key, row.value);
    if (rows.length > 0 && !(await op.commit()).ok) throw new Error("Cannot write list indexes");
    [rows, bytes] = [[], 0];
  };
  let shares = 0;
  const prefix = keys.entityPrefix(SOURCES[kind].records);
  for await (const e of kv.list<R>({ prefix }, { batchSize: LIST_BATCH })) {
    const own = gramRows(kind, indexed(e.value));
    const size = own.reduce((n, r) => n + keyBytes(r.key), 0);
    if (rows.length + own.length > MAX_ROWS_PER_COMMIT || bytes + size > MAX_KEY_BYTES_PER_COMMIT) {
      await flush();
    }
    rows.push(...own);
    bytes += size;
    shares++;
  }
  await flush();
  return shares;
}

/**
 * Sets every creator's totals of pastes and files from their creator indexes, and the bytes of
 * file shares (per creator and over all) from their records (a scan: for migrations and
 * restores). Creators whose index is empty get a total of 0.
 */
export async function recountCreatorTotals(kv: Deno.Kv): Promise<void> {
  for (const kind of ["paste", "file"] as const) {
    const byCreator = keys.entityPrefix(SOURCES[kind].byCreator);
    const counted = new Set<string>();
    for (let creator = await nextCreator(kv, byCreator); creator !== null;) {
      await setCreatorTotal(kv, kind, creator, [...byCreator, creator]);
      counted.add(creator);
      creator = await nextCreator(kv, byCreator, creator);
    }
    const totals = kv.list({ prefix: keys.shareCreatorTotalsPrefix(kind) });
    const stale = new Set<string>();
    for await (const e of totals) {
      if (!counted.has(e.key[1] as string)) stale.add(e.key[1] as string);
    }
    for (const creator of stale) await setCreatorTotal(kv, kind, creator, [...byCreator, creator]);
  }
  await setBytesTotal(kv);
}

/** The first creator in a creator index after `after` (from the start without it), or null. */
async function nextCreator(kv: Deno.Kv, byCreator: Deno.KvKey, after?: string) {
  // Every key of `after` sorts before `after + "\0"`, and every later creator after it.
  const selector = after === undefined
    ? { prefix: byCreator }
    : { prefix: byCreator, start: [...byCreator, `${after}\0`] };
  for await (const e of kv.list(selector, { limit: 1 })) return e.key[1] as string;
  return null;
}

/**
 * Sets one creator's `created` counter so that its total is what its index holds now, and for
 * file shares its `bytes_created` counter so that its bytes are those of the indexed records.
 */
async function setCreatorTotal(
  kv: Deno.Kv,
  kind: ShareKind,
  creator: string,
  index: Deno.KvKey,
): Promise<void> {
  const fields: TotalField[] = ["created", "deleted", "bytes_created", "bytes_deleted"];
  const counters: Deno.KvKey[] = fields.map((f) => keys.shareCreatorTotals(kind, creator, f));
  for (let attempt = 0; attempt < 5; attempt++) {
    const read = await kv.getMany<Deno.KvU64[]>(counters);
    const ids: string[] = [];
    for await (const e of kv.list<string>({ prefix: index }, { batchSize: LIST_BATCH })) {
      ids.push(e.value);
    }
    const base = (i: number) => read[i].value?.value ?? 0n;
    const op = kv.atomic().check(...read).set(
      counters[0],
      new Deno.KvU64(base(1) + BigInt(ids.length)),
    );
    if (kind === "file") {
      const bytes = await sumBytes(kv, ids.map((id) => [...keys.entityPrefix("files"), id]));
      op.set(counters[2], new Deno.KvU64(base(3) + bytes));
    }
    if ((await op.commit()).ok) return;
  }
  throw new Error(`Cannot recount the ${kind} shares of ${creator}: they keep changing`);
}

/** The sizes of the file records at `recordKeys` added up (missing ones count 0). */
async function sumBytes(kv: Deno.Kv, recordKeys: Deno.KvKey[]): Promise<bigint> {
  let sum = 0n;
  for (let i = 0; i < recordKeys.length; i += 10) {
    for (const e of await kv.getMany<FileRecord[]>(recordKeys.slice(i, i + 10))) {
      sum += BigInt(e.value?.size ?? 0);
    }
  }
  return sum;
}

/** Sets the bytes of all file shares from their records (a scan), as setCreatorTotal does. */
async function setBytesTotal(kv: Deno.Kv): Promise<void> {
  const counters = [
    keys.shareBytesTotals("file", "created"),
    keys.shareBytesTotals("file", "deleted"),
  ];
  for (let attempt = 0; attempt < 5; attempt++) {
    const [created, deleted] = await kv.getMany<Deno.KvU64[]>(counters);
    let sum = 0n;
    const prefix = keys.entityPrefix("files");
    for await (const e of kv.list<FileRecord>({ prefix }, { batchSize: LIST_BATCH })) {
      sum += BigInt(e.value.size);
    }
    const op = kv.atomic().check(created, deleted)
      .set(counters[0], new Deno.KvU64((deleted.value?.value ?? 0n) + sum));
    if ((await op.commit()).ok) return;
  }
  throw new Error("Cannot recount the bytes of all file shares: they keep changing");
}
