/**
 * The plan of a multipart upload (docs/PRODUCT.md §9.1): the requests a flow must offer, the tuning
 * (3 parts at once, 3 retries after 1 s × attempt, 5 minutes per part), the byte range of each
 * part, which parts a resume still has to send, and which errors end the upload at once.
 */
import { ApiError } from "../../api/client.ts";
import type { ChunkState, MultipartState, PartsProgress } from "./types.ts";
import {
  MULTIPART_CONCURRENCY,
  MULTIPART_PART_TIMEOUT_MS,
  MULTIPART_RETRIES,
  RAW_UPLOAD_TIMEOUT_MS,
} from "../../../shared/constants.ts";

/** docs/PRODUCT.md §9.1: 3 parts at once, 3 retries after 1 s × attempt, 5 minutes per part. */
export type MultipartTuning = {
  concurrency: number;
  retries: number;
  retryDelayMs: number;
  partTimeoutMs: number;
  idleMs: number;
};
export const DEFAULT_TUNING: MultipartTuning = {
  concurrency: MULTIPART_CONCURRENCY,
  retries: MULTIPART_RETRIES,
  retryDelayMs: 1000,
  partTimeoutMs: MULTIPART_PART_TIMEOUT_MS,
  idleMs: RAW_UPLOAD_TIMEOUT_MS,
};

/** Part states are listed one by one in the progress up to this many parts. */
export const MAX_CHUNKS_SHOWN = 64;
/** Assembling a large file (the local driver copies the parts) takes longer than a request. */
export const COMPLETE_TIMEOUT_MS = 15 * 60_000;

/** A part's presigned URL. */
export type PartUrl = { partNumber: number; url: string };
/** A started upload: the server's id of it, its part layout and every part's URL. */
export type StartedUpload = { id: string; partSize: number; totalParts: number; urls: PartUrl[] };
/** A part the server holds. */
export type ListedPart = { partNumber: number; etag: string; size: number };
/** What list-parts answers (`total_parts` is null when the server has no record of the file). */
export type ListResult = { parts: ListedPart[]; part_size: number; total_parts: number | null };
/** A stored part, as complete takes it. */
export type CompletedPart = { partNumber: number; ETag: string };

/**
 * The requests of one multipart flow (share uploads, mount uploads), bound to one upload; the
 * engine (multipart.ts) orders them, retries the parts and reports progress.
 */
export type MultipartFlow<T> = {
  /**
   * Starts the upload and signs every part. Takes no signal: an init the server carried out
   * must answer with its id, or the upload is left behind. Throws multipart_init_failed.
   */
  init(): Promise<StartedUpload>;
  /** The parts the server holds of upload `id`; throws the server's ApiError as it is. */
  listParts(id: string, signal: AbortSignal): Promise<ListResult>;
  /** Signs parts `numbers` again. Throws presign_failed (or cancelled). */
  refreshUrls(id: string, numbers: number[], signal: AbortSignal): Promise<PartUrl[]>;
  /** Assembles the parts into the result. Throws multipart_complete_failed (or cancelled). */
  complete(id: string, parts: CompletedPart[], signal: AbortSignal): Promise<T>;
  /** Discards the upload on the server, in the background; a failure is ignored. */
  abort(id: string): void;
};

/** The byte range [start, end) of part `n` (1-based). */
export function partRange(n: number, partSize: number, size: number): [number, number] {
  return [(n - 1) * partSize, Math.min(size, n * partSize)];
}

/**
 * What a resume still has to send: listed parts of the expected size count as done (with their
 * ETags); every other part number up to `total` is missing.
 */
export function partsToSend(
  listed: ListedPart[],
  partSize: number,
  total: number,
  size: number,
): { done: Map<number, string>; missing: number[] } {
  const done = new Map<number, string>();
  for (const p of listed) {
    if (p.partNumber < 1 || p.partNumber > total || !p.etag) continue;
    const [start, end] = partRange(p.partNumber, partSize, size);
    if (p.size === end - start) done.set(p.partNumber, p.etag);
  }
  const missing: number[] = [];
  for (let n = 1; n <= total; n++) if (!done.has(n)) missing.push(n);
  return { done, missing };
}

/** Errors after which no part is worth retrying. */
const FATAL = new Set([
  "upload_cancelled",
  "etag_missing",
  "upload_aborted",
  "upload_not_found",
  "session_expired",
  "api_key_invalid",
]);
/** True for an error after which no part is worth retrying. */
export const isFatal = (err: unknown) => err instanceof ApiError && FATAL.has(err.code);

/** Each part's state, bytes sent and ETag, for one file of `size` bytes. */
export class PartBook {
  private chunks: ChunkState[] = [];
  private sent: number[] = [];
  private etags = new Map<number, string>();
  private partSize = 0;

  constructor(private size: number) {}

  /** Lays out `total` parts of `partSize`; `done` (part → ETag) are already stored. */
  setup(total: number, partSize: number, done: Map<number, string>): void {
    this.partSize = partSize;
    this.chunks = Array.from(
      { length: total },
      (_, i) => done.has(i + 1) ? "completed" : "pending",
    );
    this.sent = this.chunks.map((c, i) => c === "completed" ? this.length(i + 1) : 0);
    this.etags = new Map(done);
  }

  /** The byte range of part `n`. */
  range(n: number): [number, number] {
    return partRange(n, this.partSize, this.size);
  }

  private length(n: number): number {
    const [start, end] = this.range(n);
    return end - start;
  }

  /** The part numbers not stored yet, in order. */
  todo(): number[] {
    return this.chunks.flatMap((c, i) => (c === "completed" ? [] : [i + 1]));
  }

  /** Sets a part's state; false when it was already in it. */
  mark(n: number, state: ChunkState): boolean {
    if (this.chunks[n - 1] === state) return false;
    this.chunks[n - 1] = state;
    if (state !== "uploading") this.sent[n - 1] = state === "completed" ? this.length(n) : 0;
    return true;
  }

  /** Records a part as stored with its ETag. */
  stored(n: number, etag: string): void {
    this.etags.set(n, etag);
    this.mark(n, "completed");
  }

  /** Records the bytes of part `n` sent so far. */
  progress(n: number, loaded: number): void {
    this.sent[n - 1] = loaded;
  }

  /** Bytes of every part sent or stored. */
  sentBytes(): number {
    return this.sent.reduce((a, b) => a + b, 0);
  }

  /** The parts for complete, in order. */
  completed(): CompletedPart[] {
    return [...this.etags].sort((a, b) => a[0] - b[0])
      .map(([partNumber, ETag]) => ({ partNumber, ETag }));
  }

  /** The progress snapshot of the parts. */
  snapshot(state: MultipartState, resumed: number): PartsProgress {
    const count = (s: ChunkState) => this.chunks.filter((c) => c === s).length;
    return {
      state,
      total: this.chunks.length,
      completed: count("completed"),
      uploading: count("uploading"),
      failed: count("failed"),
      resumed,
      chunks: this.chunks.length <= MAX_CHUNKS_SHOWN ? [...this.chunks] : null,
    };
  }
}
