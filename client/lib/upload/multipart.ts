/**
 * The one multipart engine of the browser (docs/PRODUCT.md §4.3, §9.1), for share uploads
 * (share_multipart.ts) and mount uploads (features/explorer/fs_multipart.ts) alike: a flow's init
 * signs every part; parts (5 MiB, sized by the server) go up 3 at a time by PUT to their presigned
 * URLs, each retried 3 times after 1 s × attempt, with 5 minutes per attempt; the ETag of each PUT
 * is collected; complete assembles them. The flow (multipart_plan.ts, MultipartFlow) makes the
 * requests; this module holds their order, the retries, cancelling and the progress.
 *
 * Resuming: an upload with a resume key is remembered in localStorage (resume_store.ts).
 * Choosing the same file again for the same target asks the server which parts it holds
 * (list-parts), keeps those of the right size, signs the missing ones again (refresh-urls), and
 * sends only those. Cancelling aborts the upload on the server and forgets it; leaving the page
 * (the PAUSE_REASON abort, or a reload) keeps it resumable, and so does a part that failed all
 * its retries (Retry resumes).
 */
import { ApiError } from "../../api/client.ts";
import type { ProgressReporter } from "./speed.ts";
import { findResume, forgetResume, type ResumeKey, saveResume } from "./resume_store.ts";
import { type ByteSource, type ChunkState, type MultipartState, PAUSE_REASON } from "./types.ts";
import { sendXhr, sleep } from "./xhr.ts";
import {
  DEFAULT_TUNING,
  isFatal,
  type ListResult,
  type MultipartFlow,
  type MultipartTuning,
  PartBook,
  partsToSend,
  type PartUrl,
} from "./multipart_plan.ts";

/** Uploads this tab runs now: a file chosen twice must not resume one upload twice. */
const running = new Set<string>();

/** One multipart upload: its flow, its bytes, and how it is cancelled, resumed and shown. */
export type MultipartJob<T> = {
  flow: MultipartFlow<T>;
  /** The bytes sent (made on demand for an encrypted file). */
  source: ByteSource;
  /** Cancels the upload; with PAUSE_REASON, it stays resumable. */
  signal?: AbortSignal;
  /** Makes the upload resumable; null for URL uploads. */
  resumeKey: ResumeKey | null;
  /** The part of the bar the upload fills; default [0, 100]. */
  span?: [number, number];
  tuning?: Partial<MultipartTuning>;
};

/** A Blob as the bytes of an upload. */
export function blobSource(blob: Blob): ByteSource {
  return { size: blob.size, read: (start, end) => Promise.resolve(blob.slice(start, end)) };
}

/** One multipart upload; `run()` once. */
export class MultipartUpload<T> {
  state: MultipartState = "idle";
  private book: PartBook;
  private urls = new Map<number, string>();
  private fileId = "";
  private resumed = 0;
  private completing = false;
  /** Stops every part in flight (cancel, or a fatal error). */
  private stop = new AbortController();
  private signal: AbortSignal;
  private t: MultipartTuning;
  private size: number;

  constructor(private job: MultipartJob<T>, private report: ProgressReporter) {
    this.t = { ...DEFAULT_TUNING, ...job.tuning };
    this.size = job.source.size;
    this.book = new PartBook(this.size);
    this.signal = job.signal ? AbortSignal.any([job.signal, this.stop.signal]) : this.stop.signal;
  }

  /** Uploads (or resumes) and completes; throws ApiError with a catalogue code. */
  async run(): Promise<T> {
    this.state = "uploading";
    try {
      this.report.stage("initializing");
      if (!await this.resume()) await this.init();
      running.add(this.fileId);
      const [from, to] = this.job.span ?? [0, 100];
      this.report.phase(from, to, this.size);
      this.report.stage("uploading");
      this.emitBytes();
      this.emitParts();
      await this.sendMissing();
      this.report.stage("completing");
      this.completing = true;
      const result = await this.job.flow.complete(this.fileId, this.book.completed(), this.signal);
      this.state = "completed";
      forgetResume(this.fileId);
      this.emitParts();
      this.report.stage("completed");
      return result;
    } catch (err) {
      throw this.fail(err);
    } finally {
      running.delete(this.fileId);
    }
  }

  private fail(err: unknown): unknown {
    const id = this.fileId;
    const discard = () => {
      if (!id) return;
      forgetResume(id);
      this.job.flow.abort(id);
    };
    if (this.job.signal?.aborted) {
      this.state = "aborted";
      if (this.job.signal.reason !== PAUSE_REASON) discard();
      this.emitParts();
      return new ApiError("upload_cancelled", 0, null);
    }
    this.stop.abort();
    this.state = "failed";
    this.emitParts();
    const code = err instanceof ApiError ? err.code : "";
    const gone = code === "upload_aborted" || code === "upload_not_found";
    // A complete the server answered and refused cannot be resumed either.
    const refused = this.completing && err instanceof ApiError && err.status > 0;
    if (!this.job.resumeKey || gone || refused) discard();
    else if (id && err instanceof ApiError) {
      // Retry resumes it; removing the failed item discards it (discardUpload).
      return new ApiError(err.code, err.status, err.serverMessage, err.data, {
        ...err.params,
        fileId: id,
        resumable: true,
      });
    }
    return err;
  }

  /** Takes up a remembered upload of the same file; false when there is none to take up. */
  private async resume(): Promise<boolean> {
    const key = this.job.resumeKey;
    const rec = key && findResume(key);
    if (!rec || running.has(rec.fileId)) return false;
    let listed: ListResult;
    try {
      listed = await this.job.flow.listParts(rec.fileId, this.signal);
    } catch (err) {
      if (this.signal.aborted) throw err;
      forgetResume(rec.fileId);
      // Still on the server but not listable (a store without ListParts): let it go.
      if (err instanceof ApiError && err.status !== 404 && err.status !== 403) {
        this.job.flow.abort(rec.fileId);
      }
      return false;
    }
    if (listed.part_size !== rec.partSize || listed.total_parts !== rec.totalParts) {
      forgetResume(rec.fileId);
      return false;
    }
    this.fileId = rec.fileId;
    const { done, missing } = partsToSend(listed.parts, rec.partSize, rec.totalParts, this.size);
    this.book.setup(rec.totalParts, rec.partSize, done);
    this.resumed = done.size;
    if (missing.length) await this.refreshUrls(missing);
    return true;
  }

  private async init(): Promise<void> {
    const key = this.job.resumeKey;
    // Not cut short by a cancel: an init the server already carried out would leave an upload
    // nobody knows the id of. Cancelled meanwhile, it is aborted once its id is known (fail).
    const started = await this.job.flow.init();
    this.fileId = started.id;
    this.book.setup(started.totalParts, started.partSize, new Map());
    this.addUrls(started.urls);
    if (key) {
      const { partSize, totalParts } = started;
      saveResume({ ...key, fileId: started.id, partSize, totalParts, savedAt: Date.now() });
    }
    if (this.signal.aborted) throw new ApiError("upload_cancelled", 0, null);
  }

  private async refreshUrls(numbers: number[]): Promise<void> {
    this.addUrls(await this.job.flow.refreshUrls(this.fileId, numbers, this.signal));
  }

  private addUrls(urls: PartUrl[]) {
    for (const p of urls) this.urls.set(p.partNumber, p.url);
  }

  /** Sends every part not stored yet, `concurrency` at a time. */
  private async sendMissing(): Promise<void> {
    const todo = this.book.todo();
    const failed: number[] = [];
    let fatal: unknown = null;
    const worker = async () => {
      while (todo.length && fatal === null) {
        const n = todo.shift()!;
        try {
          await this.sendPart(n);
        } catch (err) {
          if (this.signal.aborted || isFatal(err)) {
            fatal ??= err;
            this.stop.abort();
          } else failed.push(n);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.t.concurrency, todo.length) }, worker));
    if (this.job.signal?.aborted) throw new ApiError("upload_cancelled", 0, null);
    if (fatal !== null) throw fatal;
    if (failed.length) {
      throw new ApiError("parts_failed", 0, null, { failed: failed.sort((a, b) => a - b) });
    }
  }

  /** One part, with retries; a 403 (an expired URL) signs it again first. */
  private async sendPart(n: number): Promise<void> {
    const [start, end] = this.book.range(n);
    // Made when a worker takes the part, so at most `concurrency` parts are held at once.
    const body = await this.job.source.read(start, end);
    for (let attempt = 1;; attempt++) {
      this.mark(n, "uploading");
      try {
        this.book.stored(n, await this.putPart(n, body));
        this.emitParts();
        this.emitBytes();
        return;
      } catch (err) {
        this.mark(n, "failed");
        this.emitBytes();
        if (this.signal.aborted || isFatal(err) || attempt > this.t.retries) throw err;
        await sleep(this.t.retryDelayMs * attempt, this.signal);
        if (err instanceof ApiError && err.status === 403) await this.refreshUrls([n]);
      }
    }
  }

  private putPart(n: number, body: Blob): Promise<string> {
    const url = this.urls.get(n);
    if (!url) return Promise.reject(new ApiError("presign_failed", 0, null));
    return putPart(url, body, {
      signal: this.signal,
      idleMs: this.t.idleMs,
      totalMs: this.t.partTimeoutMs,
      onSent: (loaded) => {
        this.book.progress(n, loaded);
        this.emitBytes();
      },
    });
  }

  private mark(n: number, state: ChunkState) {
    if (this.book.mark(n, state)) this.emitParts();
  }

  private emitBytes() {
    this.report.bytes(this.book.sentBytes());
  }

  private emitParts() {
    this.report.parts(this.book.snapshot(this.state, this.resumed));
  }
}

/**
 * PUTs one part to its presigned URL and returns its ETag. Throws upload_aborted (404),
 * upload_failed, etag_missing or upload_network_error (the last two say whether the URL was
 * another origin, where CORS is the likely cause).
 */
async function putPart(
  url: string,
  body: Blob,
  o: { signal: AbortSignal; idleMs: number; totalMs: number; onSent: (loaded: number) => void },
): Promise<string> {
  const direct = new URL(url, globalThis.location?.href).origin !== globalThis.location?.origin;
  const res = await sendXhr({ method: "PUT", url, body, ...o }).catch((err) => {
    if (err instanceof ApiError && err.code === "upload_network_error") {
      throw new ApiError(err.code, 0, null, null, { direct });
    }
    throw err;
  });
  // The upload is gone (aborted elsewhere, or expired).
  if (res.status === 404) throw new ApiError("upload_aborted", 404, null);
  if (res.status < 200 || res.status >= 300) {
    throw new ApiError("upload_failed", res.status, null, null, { status: res.status });
  }
  const etag = res.header("ETag");
  // A bucket whose CORS rules do not expose ETag hides it from the browser.
  if (!etag) throw new ApiError("etag_missing", res.status, null, null, { direct });
  return etag;
}
