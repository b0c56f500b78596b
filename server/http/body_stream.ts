/**
 * Watching a request body while it streams: an idle timeout (no byte for `idleMs` while a reader
 * waits for one is 408 `request_body_timeout`, so a body that stalls or never ends still gets an
 * answer), an optional byte limit, and an observer of every chunk (the Idempotency-Key
 * fingerprint hashes the body with it). The clock runs only while the reader waits on the
 * client: a consumer that is slow to read (a storage upload) is not the client's fault. A byte
 * stream stays a byte stream, so BYOB readers (the storage drivers) still read the socket into
 * their own buffer.
 */
import { AppError } from "../errors.ts";
import { concatBytes } from "../../shared/e2e/bytes.ts";
import { byobReaderOf, byteStreamReadingInto } from "../lib/byob.ts";

export type WatchOptions = {
  /** The longest wait for the next byte. */
  idleMs: number;
  /** More bytes than this error the stream with `tooLarge()`. */
  maxBytes?: number;
  tooLarge?: () => AppError;
  /** Sees every chunk, in order, before the consumer does. */
  onChunk?: (chunk: Uint8Array) => void;
};

export type WatchedBody = {
  stream: ReadableStream<Uint8Array>;
  /** True once the body was read to its end (not cancelled, no error). */
  ended: () => boolean;
  /** Bytes seen so far. */
  bytes: () => number;
};

/** The 408 a stalled body gets. */
export function bodyTimeout(idleMs: number): AppError {
  return new AppError("request_body_timeout", 408, { seconds: Math.ceil(idleMs / 1000) });
}

type Result = ReadableStreamReadResult<Uint8Array>;

/**
 * The reads of one body under the idle clock, and the count and limit of what they bring
 * (watchBody and readWatched): `read` ends with the 408 when the clock runs out, `accept`
 * returns the error that ends the body, if any.
 */
function watchedReads(
  reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader,
  opts: WatchOptions,
) {
  let seen = 0;
  const idle = new IdleClock(opts.idleMs, (err) => reader.cancel(err).catch(() => {}));
  return {
    idle,
    bytes: () => seen,
    /** One read, into `into` on a BYOB reader. */
    async read(into?: Uint8Array): Promise<Result> {
      idle.waiting();
      try {
        const result = into
          ? await (reader as ReadableStreamBYOBReader).read(into) as Result
          : await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
        // A timeout cancels the reader, which ends the pending read as if the body had ended.
        if (idle.timedOut) throw idle.timedOut;
        return result;
      } finally {
        idle.received();
      }
    },
    /** Counts and observes a chunk; returns the error that ends the body, if any. */
    accept(chunk: Uint8Array): AppError | null {
      seen += chunk.byteLength;
      if (opts.maxBytes !== undefined && seen > opts.maxBytes) {
        return opts.tooLarge?.() ?? new AppError("payload_too_large", 413);
      }
      opts.onChunk?.(chunk);
      return null;
    },
  };
}

/** Wraps a request body with the idle timeout, the limit and the observer (module comment). */
export function watchBody(body: ReadableStream<Uint8Array>, opts: WatchOptions): WatchedBody {
  let ended = false;
  const byob = byobReaderOf(body);
  const reader = byob ?? body.getReader();
  const { idle, bytes, read, accept } = watchedReads(reader, opts);
  const fail = (c: ReadableStreamController<Uint8Array>, err: unknown) => {
    idle.stop();
    c.error(err);
    reader.cancel(err).catch(() => {});
  };
  const cancel = (reason: unknown) => {
    idle.stop();
    return reader.cancel(reason);
  };

  if (!byob) {
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        let result: Result;
        try {
          result = await read();
        } catch (err) {
          return fail(c, err);
        }
        if (result.done) {
          ended = true;
          idle.stop();
          return c.close();
        }
        const err = accept(result.value);
        if (err) return fail(c, err);
        c.enqueue(result.value);
      },
      cancel,
    });
    return { stream, ended: () => ended, bytes };
  }
  const stream = byteStreamReadingInto(async (into, c) => {
    let result: Result;
    try {
      result = await read(into);
    } catch (err) {
      fail(c, err);
      return null;
    }
    if (result.done) {
      ended = true;
      idle.stop();
      return result;
    }
    const err = accept(result.value);
    if (err) {
      fail(c, err);
      return null;
    }
    return result;
  }, cancel);
  return { stream, ended: () => ended, bytes };
}

/**
 * The idle clock of one body: one timer, re-armed only when it fires while a read still waits,
 * rather than a timer per read (a read per 64 KiB chunk would make that a cost of its own).
 */
class IdleClock {
  #since = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  timedOut: AppError | null = null;

  constructor(private idleMs: number, private onTimeout: (err: AppError) => void) {}

  /** A read starts waiting for the client. */
  waiting(): void {
    this.#since = Date.now();
    if (this.#timer === undefined) this.#arm(this.idleMs);
  }

  /** The read got its answer. */
  received(): void {
    this.#since = 0;
  }

  /** The body ended, failed or was cancelled: no more timer. */
  stop(): void {
    this.#since = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    const timer = setTimeout(() => this.#check(), ms);
    Deno.unrefTimer(timer as unknown as number); // never what keeps the process alive
    this.#timer = timer;
  }

  #check(): void {
    this.#timer = undefined;
    if (this.#since === 0) return; // not waiting: the next read arms it again
    const left = this.#since + this.idleMs - Date.now();
    if (left > 0) return this.#arm(left);
    this.timedOut = bodyTimeout(this.idleMs);
    this.onTimeout(this.timedOut);
  }
}

/**
 * Reads a whole body within the options' limit and idle timeout; the bytes in one array. It
 * reads the body's own reader under the same clock and limit as watchBody, without a stream
 * around it: a JSON body is read whole, and the extra stream was a cost of every request.
 */
export async function readWatched(
  body: ReadableStream<Uint8Array>,
  opts: WatchOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const reads = watchedReads(reader, opts);
  const chunks: Uint8Array[] = [];
  try {
    while (true) {
      const result = await reads.read();
      if (result.done) break;
      const err = reads.accept(result.value);
      if (err) throw err;
      chunks.push(result.value);
    }
  } catch (err) {
    reader.cancel(err).catch(() => {});
    throw err;
  } finally {
    reads.idle.stop();
  }
  if (chunks.length === 1 && chunks[0].buffer instanceof ArrayBuffer) {
    return chunks[0] as Uint8Array<ArrayBuffer>;
  }
  return concatBytes(chunks);
}
