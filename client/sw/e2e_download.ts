/**
 * Streamed, decrypted downloads of end-to-end encrypted files (docs/E2E.md), the way Send does
 * them: the page hands the worker a job (the ciphertext's link, the share secret, name, type and
 * size) by message, then navigates a hidden frame to E2E_DOWNLOAD_PATH + the job's id. The
 * worker fetches the ciphertext, decrypts it record by record and answers with an attachment,
 * so the browser's own download manager writes the plaintext to disk with backpressure: memory
 * stays at a few records whatever the size, in every browser with service workers.
 *
 * The secret lives in this worker's memory only: a job is taken (and forgotten) when its
 * download starts, an unstarted one is dropped after JOB_TTL_MS, and nothing is cached. The
 * page polls the job's status, which shows progress and keeps the worker alive meanwhile.
 */
import { registerRoute } from "workbox-routing";
import { ByteQueue, concatBytes } from "../../shared/e2e/bytes.ts";
import {
  decryptStream,
  E2EError,
  HEADER_BYTES,
  parseHeader,
  plaintextSize,
} from "../../shared/e2e/stream.ts";
import { E2E_DOWNLOAD_PATH, SW_MESSAGES } from "../../shared/pwa.ts";
import { sw } from "./scope.ts";

/** What the page hands over. */
export type DownloadJob = {
  id: string;
  /** The ciphertext's download link (with its view token). */
  url: string;
  ikm: Uint8Array<ArrayBuffer>;
  name: string;
  type: string;
  /** Ciphertext bytes (the share's size on the server). */
  sealedSize: number;
};

/** How a job goes, as the page's status poll sees it. */
export type DownloadStatus = {
  state: "waiting" | "running" | "done" | "failed";
  loaded: number;
  total: number;
  /** Why it failed: an HTTP status of the ciphertext, "integrity", "format" or "network". */
  reason?: string;
};

const JOB_TTL_MS = 60_000;
const OUT_CHUNK_BYTES = 1024 * 1024;
const jobs = new Map<string, { job: DownloadJob; timer: ReturnType<typeof setTimeout> }>();
const statuses = new Map<string, DownloadStatus>();

/** `filename*` per RFC 6266, with a plain ASCII fallback. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Records how a job ended; the status is dropped once read, or after JOB_TTL_MS unread. */
function finish(id: string, status: DownloadStatus) {
  statuses.set(id, status);
  setTimeout(() => statuses.delete(id), JOB_TTL_MS);
}

function fail(id: string, reason: string) {
  const s = statuses.get(id);
  if (s) finish(id, { ...s, state: "failed", reason });
}

/**
 * The plaintext size, from the stream's own header (its record size), read before the answer
 * starts so it can carry a Content-Length; returns it with the bytes read so far.
 */
async function readSize(reader: ReadableStreamDefaultReader<Uint8Array>, sealedSize: number) {
  const head = new ByteQueue();
  const chunks: Uint8Array[] = [];
  while (head.length < HEADER_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    head.push(value);
    chunks.push(value);
  }
  if (head.length < HEADER_BYTES) throw new E2EError("format", "no stream header");
  const size = plaintextSize(sealedSize, parseHeader(head.take(HEADER_BYTES)).recordSize);
  if (size === null) throw new E2EError("integrity", "the stream has an impossible size");
  return { size, chunks };
}

/** The decrypted download of a taken job; errors become the job's failed status. */
async function respond(job: DownloadJob): Promise<Response> {
  const status: DownloadStatus = { state: "running", loaded: 0, total: 0 };
  statuses.set(job.id, status);
  let res: Response;
  try {
    res = await fetch(job.url, { credentials: "omit", cache: "no-store" });
  } catch {
    fail(job.id, "network");
    return new Response("The encrypted file could not be fetched.", { status: 502 });
  }
  if (!res.ok || !res.body) {
    fail(job.id, String(res.status));
    await res.body?.cancel();
    return new Response("The encrypted file is not available.", { status: res.status || 502 });
  }
  const raw = res.body.getReader();
  let size: number;
  let chunks: Uint8Array[];
  try {
    ({ size, chunks } = await readSize(raw, job.sealedSize));
  } catch (err) {
    fail(job.id, err instanceof E2EError ? err.reason : "network");
    await raw.cancel().catch(() => {});
    return new Response("The encrypted file is damaged.", { status: 502 });
  }
  status.total = size;
  // The bytes read for the header first, then the rest of the answer.
  const sealed = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
    },
    async pull(controller) {
      const { done, value } = await raw.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => raw.cancel(reason),
  }, { highWaterMark: 0 });
  const reader = sealed.pipeThrough(decryptStream({ ikm: job.ikm })).getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // Records go out in chunks of about 1 MiB: each chunk crossing to the browser's
        // download has a cost of its own, and 64 KiB records would pay it 16 times as often.
        const parts: Uint8Array[] = [];
        let size = 0;
        let ended = false;
        while (size < OUT_CHUNK_BYTES) {
          const { done, value } = await reader.read();
          if (done) {
            ended = true;
            break;
          }
          parts.push(value);
          size += value.length;
        }
        if (size > 0) controller.enqueue(parts.length === 1 ? parts[0] : concatBytes(parts));
        status.loaded += size;
        if (ended) {
          finish(job.id, { ...status, state: "done" });
          controller.close();
        }
      } catch (err) {
        fail(job.id, err instanceof E2EError ? err.reason : "network");
        // Erroring the body makes the browser discard the unfinished file.
        controller.error(err);
      }
    },
    cancel: (reason) => reader.cancel(reason),
    // A chunk decrypted ahead, so decryption and writing to disk overlap.
  }, { highWaterMark: 2 });
  return new Response(body, {
    headers: {
      "Content-Type": job.type || "application/octet-stream",
      "Content-Disposition": disposition(job.name),
      "Content-Length": String(size),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}

/** Takes the job a download navigation names; 404 when there is none (used, or expired). */
function handle(url: URL): Promise<Response> {
  const id = url.pathname.slice(E2E_DOWNLOAD_PATH.length);
  const entry = jobs.get(id);
  if (!entry) return Promise.resolve(new Response("No such download.", { status: 404 }));
  jobs.delete(id);
  clearTimeout(entry.timer);
  return respond(entry.job);
}

/** Registers the download route and the messages that hand jobs over and report on them. */
export function registerE2EDownloads() {
  registerRoute(
    ({ url, request }) =>
      request.method === "GET" && url.origin === location.origin &&
      url.pathname.startsWith(E2E_DOWNLOAD_PATH),
    ({ url }) => handle(url),
  );
  sw.addEventListener("message", (event) => {
    const data = event.data as { type?: string; job?: DownloadJob; id?: string } | null;
    const reply = (value: unknown) => event.ports[0]?.postMessage(value);
    if (data?.type === SW_MESSAGES.e2eDownload && data.job) {
      const job = data.job;
      const timer = setTimeout(() => {
        jobs.delete(job.id);
        statuses.delete(job.id);
      }, JOB_TTL_MS);
      jobs.set(job.id, { job, timer });
      statuses.set(job.id, { state: "waiting", loaded: 0, total: 0 });
      reply({ ok: true });
    } else if (data?.type === SW_MESSAGES.e2eDownloadStatus && data.id) {
      const status = statuses.get(data.id) ?? null;
      if (status?.state === "done" || status?.state === "failed") statuses.delete(data.id);
      reply(status);
    }
  });
}
