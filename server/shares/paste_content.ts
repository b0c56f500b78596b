/**
 * A paste's content in KV. Small content (at most INLINE_BYTES of UTF-8) lives in the record
 * itself (`content_text`), so a view reads one value. Larger content is stored as UTF-8 chunks
 * under `paste_chunks/{content_id}/{n}`, since a value holds at most 64 KiB and a commit at
 * most 800 KiB. A version's chunks are written before the record that points at them (or, for
 * one chunk, in the record's own commit) and deleted after the record moved on, so a reader
 * never sees half of a version.
 */
import { ulid } from "../lib/ulid.ts";
import { keys } from "../kv/keys.ts";

/** Bytes per content chunk (below the 64 KiB value limit). */
export const CHUNK_BYTES = 60_000;
/** Chunks per commit while writing content: about 600 KB, well under 800 KiB. */
const CHUNKS_PER_COMMIT = 10;
/** Deletes per commit when removing chunks (the limit is 1000 mutations). */
const DELETES_PER_COMMIT = 500;
/** Chunks read by their keys in one `getMany` (its limit is 10 keys); more go through a list. */
const CHUNKS_PER_READ = 10;

/**
 * Content of at most this many UTF-8 bytes is kept in the record: a string of at most 8 KiB
 * serialised, far below the 64 KiB value limit, and small enough that lists, which read whole
 * records, stay light.
 */
export const INLINE_BYTES = 4096;

const encoder = new TextEncoder();

/** Where a record's content lives. */
export type ContentRef = {
  content_id: string;
  content_size: number;
  /** 0 for inline (or empty) content. */
  content_chunks: number;
  /** The content itself when it is at most INLINE_BYTES; no chunk exists then. */
  content_text?: string;
};

/** A text ready to be saved with its record. */
export type StoredContent = {
  /** The record's content fields. */
  ref: ContentRef;
  /** The one chunk to commit together with the record (content of one chunk). */
  firstChunk?: Uint8Array;
  /** True when chunks were written apart: delete them if the record is not saved. */
  written: boolean;
};

/**
 * Prepares a text for its record: inline when small, one chunk committed with the record, or
 * chunks written now (then the record's commit makes them visible).
 */
export async function storeContent(kv: Deno.Kv, text: string): Promise<StoredContent> {
  const bytes = encoder.encode(text);
  const size = bytes.length;
  if (size <= INLINE_BYTES) {
    const ref = { content_id: ulid(), content_size: size, content_chunks: 0, content_text: text };
    return { ref, written: false };
  }
  if (size <= CHUNK_BYTES) {
    const ref = { content_id: ulid(), content_size: size, content_chunks: 1 };
    return { ref, firstChunk: bytes, written: false };
  }
  const { contentId, chunks } = await writeContent(kv, bytes);
  return {
    ref: { content_id: contentId, content_size: size, content_chunks: chunks },
    written: true,
  };
}

/** The keys of every chunk of a content version. */
export function chunkKeys(ref: ContentRef): Deno.KvKey[] {
  return Array.from({ length: ref.content_chunks }, (_, n) => keys.pasteChunks(ref.content_id, n));
}

/**
 * Joins chunks read for `ref` (in order) into its bytes; null when any is missing or the sizes
 * disagree (the version was replaced and its chunks deleted).
 */
export function joinChunks(
  ref: ContentRef,
  entries: Iterable<Deno.KvEntryMaybe<unknown>>,
): Uint8Array<ArrayBuffer> | null {
  const out = new Uint8Array(ref.content_size);
  let offset = 0;
  let count = 0;
  for (const e of entries) {
    const bytes = e.value;
    if (!(bytes instanceof Uint8Array) || e.key[2] !== count) return null;
    if (offset + bytes.length > out.length) return null;
    out.set(bytes, offset);
    offset += bytes.length;
    count++;
  }
  return count === ref.content_chunks && offset === ref.content_size ? out : null;
}

/** Reads a version's bytes; null when its chunks are gone. */
export async function readContent(
  kv: Deno.Kv,
  ref: ContentRef,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (ref.content_text !== undefined) return encoder.encode(ref.content_text);
  if (ref.content_chunks <= CHUNKS_PER_READ) {
    return joinChunks(ref, await kv.getMany(chunkKeys(ref)));
  }
  const entries = await Array.fromAsync(
    kv.list<Uint8Array>({ prefix: keys.pasteChunksPrefix(ref.content_id) }),
  );
  return joinChunks(ref, entries);
}

/** Writes content as chunks of a fresh version; throws after cleaning up on failure. */
export async function writeContent(
  kv: Deno.Kv,
  bytes: Uint8Array,
): Promise<{ contentId: string; chunks: number }> {
  const contentId = ulid();
  const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
  try {
    for (let first = 0; first < chunks; first += CHUNKS_PER_COMMIT) {
      const op = kv.atomic();
      for (let n = first; n < Math.min(chunks, first + CHUNKS_PER_COMMIT); n++) {
        // slice (a copy), not subarray: a view would serialise its whole buffer.
        op.set(keys.pasteChunks(contentId, n), bytes.slice(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES));
      }
      const res = await op.commit();
      if (!res.ok) throw new Error(`Cannot write chunks of content ${contentId}`);
    }
  } catch (err) {
    await deleteContent(kv, contentId).catch(() => {});
    throw err;
  }
  return { contentId, chunks };
}

/** Deletes every chunk of a content version. */
export async function deleteContent(kv: Deno.Kv, contentId: string): Promise<void> {
  let batch: Deno.KvKey[] = [];
  const flush = async () => {
    const op = kv.atomic();
    for (const key of batch) op.delete(key);
    await op.commit();
    batch = [];
  };
  for await (const e of kv.list({ prefix: keys.pasteChunksPrefix(contentId) })) {
    batch.push(e.key);
    if (batch.length === DELETES_PER_COMMIT) await flush();
  }
  if (batch.length) await flush();
}
