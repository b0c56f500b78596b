/**
 * Idempotency-Key records in KV. A key is first reserved with a `versionstamp: null` check, so of
 * two concurrent requests with one key only one runs; the winner then swaps the reservation for
 * its result (checked against its own reservation), or releases it when the request failed.
 * Expiry is also checked in code, because KV may return an expired key for a while.
 */
import { keys } from "./keys.ts";

/** One stored value holds at most this many characters of the sealed reply. */
const CHUNK_CHARS = 60_000;
/** At most this many chunks, so the result and its chunks fit one atomic commit. */
export const MAX_IDEMPOTENCY_CHUNKS = 10;

/**
 * What a key was used for: `request` is the hash of the method, path, query and media type;
 * `body` the SHA-256 of the body, null while a streamed body is still arriving.
 */
export type IdempotencyFingerprint = { request: string; body: string | null };
export type IdempotencyPending = IdempotencyFingerprint & { state: "pending"; until: number };
export type IdempotencyDone = {
  state: "done";
  request: string;
  body: string;
  status: number;
  content_type: string;
  chunks: number;
  until: number;
};
export type IdempotencyRecord = IdempotencyPending | IdempotencyDone;

export type Reservation =
  | { reserved: true; versionstamp: string }
  | { reserved: false; record: IdempotencyRecord; sealed: string | null };

export class IdempotencyRepo {
  constructor(private kv: Deno.Kv) {}

  /** Reserves the key, or returns what it already holds (a pending request or a result). */
  async reserve(
    scope: string,
    keyHash: string,
    fingerprint: IdempotencyFingerprint,
    pendingMs: number,
  ): Promise<Reservation> {
    const key = keys.idempotency(scope, keyHash);
    for (let attempt = 0; attempt < 5; attempt++) {
      const entry = await this.kv.get<IdempotencyRecord>(key);
      const now = Date.now();
      if (entry.value?.state === "pending" && entry.value.until > now) {
        return { reserved: false, record: entry.value, sealed: null };
      }
      if (entry.value?.state === "done" && entry.value.until > now) {
        const sealed = await this.readChunks(scope, keyHash, entry.value.chunks);
        // Chunks already expired: the result is gone, so the key is free again.
        if (sealed !== null) return { reserved: false, record: entry.value, sealed };
      }
      const record: IdempotencyPending = {
        ...fingerprint,
        state: "pending",
        until: now + pendingMs,
      };
      const res = await this.kv.atomic().check(entry)
        .set(key, record, { expireIn: pendingMs }).commit();
      if (res.ok) return { reserved: true, versionstamp: res.versionstamp };
    }
    throw new Error(`Idempotency key ${keyHash} kept changing under reservation`);
  }

  /** Replaces the caller's reservation with the result; false when the reservation was lost. */
  async complete(
    scope: string,
    keyHash: string,
    versionstamp: string,
    result: Omit<IdempotencyDone, "state" | "chunks" | "until">,
    sealed: string,
    ttlMs: number,
  ): Promise<boolean> {
    const parts: string[] = [];
    for (let i = 0; i < sealed.length; i += CHUNK_CHARS) {
      parts.push(sealed.slice(i, i + CHUNK_CHARS));
    }
    if (parts.length > MAX_IDEMPOTENCY_CHUNKS) return false;
    const key = keys.idempotency(scope, keyHash);
    const record: IdempotencyDone = {
      ...result,
      state: "done",
      chunks: parts.length,
      until: Date.now() + ttlMs,
    };
    const op = this.kv.atomic().check({ key, versionstamp }).set(key, record, { expireIn: ttlMs });
    parts.forEach((part, n) =>
      op.set(keys.idempotencyChunks(scope, keyHash, n), part, { expireIn: ttlMs })
    );
    return (await op.commit()).ok;
  }

  /** Drops the caller's reservation so that a later repeat runs the request again. */
  async release(scope: string, keyHash: string, versionstamp: string): Promise<void> {
    const key = keys.idempotency(scope, keyHash);
    await this.kv.atomic().check({ key, versionstamp }).delete(key).commit();
  }

  private async readChunks(scope: string, keyHash: string, n: number): Promise<string | null> {
    if (n === 0) return "";
    const entries = await this.kv.getMany<string[]>(
      Array.from({ length: n }, (_, i) => keys.idempotencyChunks(scope, keyHash, i)),
    );
    if (entries.some((e) => e.value === null)) return null;
    return entries.map((e) => e.value).join("");
  }
}
