/**
 * Multipart uploads in the browser (docs/PRODUCT.md §4.3, §9.1): init signs every part;
 * parts (5 MiB, sized by the server) go up 3 at a time by PUT to their presigned URLs, each
 * retried 3 times after 1 s × attempt, with 5 minutes per attempt; the ETag of each PUT is
 * collected; complete assembles them into the share.
 *
 * Resuming: a file upload (not a URL upload) is remembered in localStorage (resume_store.ts).
 * Choosing the same file again for the same config asks the server which parts it holds
 * (list-parts), keeps those of the right size, signs the missing ones again (refresh-urls), and
 * sends only those. Cancelling aborts the upload on the server and forgets it; leaving the page
 * (the PAUSE_REASON abort, or a reload) keeps it resumable, and so does a part that failed all
 * its retries (Retry resumes).
 *
 * This module holds the order of the steps, the retries and the progress; the requests
 * themselves are in multipart_calls.ts, the part arithmetic in multipart_plan.ts.
 */
import { ApiError } from "../../api/client.ts";
import type { ProgressReporter } from "./speed.ts";
import { findResume, forgetResume, type ResumeKey, saveResume } from "./resume_store.ts";
import { type ChunkState, type FileView, type MultipartState, PAUSE_REASON } from "./types.ts";
import { sleep } from "./xhr.ts";
import {
  DEFAULT_TUNING,
  isFatal,
  type ListResult,
  type MultipartTuning,
  PartBook,
  partsToSend,
  type PartUrl,
} from "./multipart_plan.ts";
import {
  abortMultipart,
  completeMultipart,
  initMultipart,
  listMultipartParts,
  type MultipartRequest,
  putPart,
  refreshPartUrls,
} from "./multipart_calls.ts";

/** Uploads this tab runs now: a file chosen twice must not resume one upload twice. */
const running = new Set<string>();

export type MultipartJob = MultipartRequest & {
  /** Makes the upload resumable; null for URL uploads. */
  resumeKey: ResumeKey | null;
  /** The part of the bar the upload fills; default [0, 100]. */
  span?: [number, number];
  tuning?: Partial<MultipartTuning>;
};

/** One multipart upload; `run()` once. */
export class MultipartUpload {
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
  /** The bytes sent: the source's when they are made on demand (encrypted), else the blob's. */
  private size: number;

  constructor(private job: MultipartJob, private report: ProgressReporter) {
    this.t = { ...DEFAULT_TUNING, ...job.tuning };
    this.size = job.source?.size ?? job.blob.size;
    this.book = new PartBook(this.size);
    this.signal = job.signal ? AbortSignal.any([job.signal, this.stop.signal]) : this.stop.signal;
  }

  /** Uploads (or resumes) and completes; throws ApiError with a catalogue code. */
  async run(): Promise<FileView> {
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
      const view = await this.complete();
      this.state = "completed";
      forgetResume(this.fileId);
      this.emitParts();
      this.report.stage("completed");
      return view;
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
      abortMultipart(this.job.routes, id);
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
      listed = await listMultipartParts(this.job.routes, rec.fileId, this.signal);
    } catch (err) {
      if (this.signal.aborted) throw err;
      forgetResume(rec.fileId);
      // Still on the server but not listable (a store without ListParts): let it go.
      if (err instanceof ApiError && err.status !== 404 && err.status !== 403) {
        abortMultipart(this.job.routes, rec.fileId);
      }
      return false;
    }
    if (listed.part_size !== rec.partSize || listed.total_parts !== rec.totalParts) {
      forgetResume(rec.fileId);
      return false;
    }
    this.fileId = rec.fileId;
    const { done, missing } = partsToSend(
      listed.parts,
      listed.part_size,
      listed.total_parts,
      this.size,
    );
    this.book.setup(listed.total_parts, listed.part_size, done);
    this.resumed = done.size;
    if (missing.length) await this.refreshUrls(missing);
    return true;
  }

  private async init(): Promise<void> {
    const u = this.job;
    // Not cut short by a cancel: an init the server already carried out would leave an upload
    // nobody knows the id of. Cancelled meanwhile, it is aborted once its id is known (fail).
    const res = await initMultipart(u, new AbortController().signal);
    this.fileId = res.file_id;
    this.book.setup(res.total_parts, res.part_size, new Map());
    this.addUrls(res.presigned_urls);
    if (u.resumeKey) {
      saveResume({
        ...u.resumeKey,
        fileId: res.file_id,
        partSize: res.part_size,
        totalParts: res.total_parts,
        savedAt: Date.now(),
      });
    }
    if (this.signal.aborted) throw new ApiError("upload_cancelled", 0, null);
  }

  private async refreshUrls(numbers: number[]): Promise<void> {
    this.addUrls(await refreshPartUrls(this.job.routes, this.fileId, numbers, this.signal));
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
    const body = this.job.source
      ? await this.job.source.read(start, end)
      : this.job.blob.slice(start, end);
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

  private complete(): Promise<FileView> {
    return completeMultipart(this.job, this.fileId, this.book.completed(), this.signal);
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
