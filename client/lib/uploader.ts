/**
 * Browser file uploads with progress (spec §4 "Upload stages", §7 "Files").
 *
 * fetch() cannot report upload progress, so the bytes go through XMLHttpRequest: its
 * `upload.onprogress` gives the bytes sent, from which a sliding-window average gives the speed
 * and the time left. Two flows:
 * - form: one multipart POST /api/upload with the share fields first and the file last (the
 *   server streams the file part and reads only the fields before it);
 * - presign: POST /api/s3/presign, a raw PUT of the bytes to the returned URL (straight to the
 *   bucket, or a signed Cubby URL for local storage), then POST /api/s3/commit.
 * Cancelling aborts the XHR (or the JSON call in flight) and rejects with `upload_cancelled`.
 * A transfer that makes no progress for RAW_UPLOAD_TIMEOUT_MS fails with `request_timeout`.
 */
import { api, apiBase, ApiError, type Envelope } from "../api/client.ts";
import { authHeader, clearAuth, getAuth } from "../auth/auth_store.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import { RAW_UPLOAD_TIMEOUT_MS } from "../../shared/constants.ts";
import type { FileView } from "../../shared/schemas/files.ts";

export type { FileView };

/** The stages of one upload, in order (spec §4). */
export const UPLOAD_STAGES = [
  "starting",
  "initializing",
  "uploading",
  "processing",
  "completing",
  "completed",
] as const;
export type UploadStage = typeof UPLOAD_STAGES[number];

/** "form" posts through Cubby; "presign" PUTs to a presigned URL and commits. */
export type UploadMethod = "form" | "presign";

/** A snapshot of an upload's progress. */
export type UploadProgress = {
  stage: UploadStage;
  /** File bytes sent so far. */
  loaded: number;
  /** File size in bytes. */
  total: number;
  /** 0–100, whole numbers. */
  percent: number;
  /** Moving average in bytes per second (0 until measurable). */
  speed: number;
  /** Seconds left at the current speed; null when unknown. */
  eta: number | null;
};

/** The share options sent with a file (spec §3 "File upload fields"). */
export type ShareOptions = {
  s3ConfigId?: string;
  slug?: string;
  remark?: string;
  password?: string;
  /** Seconds from now; 0 means never. */
  expiresIn?: number;
  /** 0 means unlimited. */
  maxViews?: number;
  useProxy?: boolean;
};

export type UploadRequest = {
  file: Blob & { name?: string };
  /** Overrides the file's own name. */
  filename?: string;
  method: UploadMethod;
  options: ShareOptions;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
  /** Idle timeout of a transfer; defaults to RAW_UPLOAD_TIMEOUT_MS. */
  idleTimeoutMs?: number;
};

/** The presign response (spec §3 "Presign response data"). */
export type PresignResult = {
  upload_url: string;
  file_id: string;
  storage_path: string;
  s3_url: string;
  slug: string | null;
  provider_type: string;
  contentType: string;
};

/**
 * Speed over a sliding time window: the bytes between the oldest and newest sample in the last
 * `windowMs`, divided by the time between them. Robust to bursty progress events.
 */
export class SpeedMeter {
  private samples: { t: number; bytes: number }[] = [];

  constructor(private windowMs = 3000) {}

  /** Records that `bytes` (a running total) had been sent at time `t` (ms). */
  add(bytes: number, t: number = performance.now()): void {
    this.samples.push({ t, bytes });
    // Keep one sample older than the window as the baseline.
    while (this.samples.length > 2 && t - this.samples[1].t >= this.windowMs) this.samples.shift();
  }

  /** Bytes per second, or 0 while fewer than two samples span any time. */
  bytesPerSecond(): number {
    if (this.samples.length < 2) return 0;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const dt = last.t - first.t;
    return dt > 0 ? Math.max(0, ((last.bytes - first.bytes) / dt) * 1000) : 0;
  }

  /** Forgets every sample (a new transfer starts). */
  reset(): void {
    this.samples = [];
  }
}

/** Seconds left for `remaining` bytes at `speed` bytes/s; null when the speed is unknown. */
export function estimateSecondsLeft(remaining: number, speed: number): number | null {
  if (remaining <= 0) return 0;
  if (!(speed > 0)) return null;
  return Math.ceil(remaining / speed);
}

/** Reports progress: stage changes and byte counts, with speed and time left filled in. */
class ProgressReporter {
  private meter = new SpeedMeter();
  private state: UploadProgress;

  constructor(total: number, private emit?: (p: UploadProgress) => void) {
    this.state = { stage: "starting", loaded: 0, total, percent: 0, speed: 0, eta: null };
  }

  stage(stage: UploadStage) {
    const done = stage === "processing" || stage === "completing" || stage === "completed";
    const loaded = done ? this.state.total : this.state.loaded;
    if (stage === "uploading") this.meter.reset();
    this.state = {
      ...this.state,
      stage,
      loaded,
      percent: done ? 100 : this.state.percent,
      eta: done ? 0 : this.state.eta,
    };
    this.emit?.(this.state);
  }

  bytes(loaded: number) {
    const total = this.state.total;
    const clamped = Math.min(Math.max(0, loaded), total);
    this.meter.add(clamped);
    const speed = this.meter.bytesPerSecond();
    this.state = {
      ...this.state,
      loaded: clamped,
      percent: total > 0 ? Math.min(100, Math.floor((clamped / total) * 100)) : 100,
      speed,
      eta: estimateSecondsLeft(total - clamped, speed),
    };
    this.emit?.(this.state);
  }
}

type XhrResult = { status: number; text: string; header: (name: string) => string | null };

/**
 * Sends one request with XMLHttpRequest. Rejects with ApiError `upload_cancelled` on abort,
 * `request_timeout` after `idleMs` without progress, and `upload_network_error` on a network
 * failure; any HTTP status resolves.
 */
function sendXhr(
  { method, url, body, headers, signal, idleMs, onSent, onDone }: {
    method: string;
    url: string;
    body: XMLHttpRequestBodyInit;
    headers: Record<string, string>;
    signal?: AbortSignal;
    idleMs: number;
    onSent?: (loaded: number, total: number) => void;
    onDone?: () => void;
  },
): Promise<XhrResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ApiError("upload_cancelled", 0, null));
      return;
    }
    const xhr = new XMLHttpRequest();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        xhr.abort();
      }, idleMs);
    };
    const onAbortSignal = () => xhr.abort();
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbortSignal);
    };
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      arm();
      if (e.lengthComputable) onSent?.(e.loaded, e.total);
    };
    xhr.upload.onload = () => {
      arm();
      onDone?.();
    };
    xhr.onload = () => {
      cleanup();
      resolve({
        status: xhr.status,
        text: typeof xhr.responseText === "string" ? xhr.responseText : "",
        header: (name) => xhr.getResponseHeader(name),
      });
    };
    xhr.onerror = () => {
      cleanup();
      reject(new ApiError("upload_network_error", 0, null));
    };
    xhr.onabort = () => {
      cleanup();
      reject(new ApiError(timedOut ? "request_timeout" : "upload_cancelled", 0, null));
    };
    signal?.addEventListener("abort", onAbortSignal, { once: true });
    arm();
    xhr.send(body);
  });
}

/** Turns a JSON envelope reply of an /api call into its data, or an ApiError (as api() does). */
function envelopeResult<T>(res: XhrResult, sentAuth: string | null): T {
  let json: Partial<Envelope<T>> | null = null;
  try {
    json = res.text ? JSON.parse(res.text) : null;
  } catch {
    json = null;
  }
  const okStatus = res.status === 200 || res.status === 201 || res.status === 202;
  if (okStatus && json && json.success !== false) return json.data as T;
  const code = json?.error;
  const message = json?.message ?? null;
  if (res.status === 401 && sentAuth?.startsWith("Bearer ")) {
    clearAuth("session_expired");
    throw new ApiError("session_expired", 401, null, json?.data);
  }
  if (
    res.status === 401 && sentAuth?.startsWith("ApiKey ") && code !== "api_key_permission_denied"
  ) {
    clearAuth("api_key_invalid");
    throw new ApiError("api_key_invalid", 401, null, json?.data);
  }
  if (code) throw new ApiError(code, res.status, message, json?.data ?? null);
  if (res.status === 409) throw new ApiError("slug_taken", 409, message);
  if (res.status === 413) throw new ApiError("file_too_large", 413, message);
  if (okStatus) throw new ApiError("invalid_response_format", res.status, message);
  throw new ApiError("http_error", res.status, message, null, { status: res.status });
}

function filenameOf(req: UploadRequest): string {
  return (req.filename ?? req.file.name ?? "").trim() || "file";
}

function formFields(req: UploadRequest, filename: string, mimetype: string) {
  const o = req.options;
  const fields: [string, string][] = [];
  if (o.s3ConfigId) fields.push(["s3_config_id", o.s3ConfigId]);
  if (o.slug) fields.push(["slug", o.slug]);
  if (o.remark) fields.push(["remark", o.remark]);
  if (o.password) fields.push(["password", o.password]);
  fields.push(["expires_in", String(o.expiresIn ?? 0)]);
  fields.push(["max_views", String(o.maxViews ?? 0)]);
  if (o.useProxy !== undefined) fields.push(["use_proxy", String(o.useProxy)]);
  fields.push(["size", String(req.file.size)]);
  fields.push(["filename", filename]);
  fields.push(["mimetype", mimetype]);
  return fields;
}

/** Uploads through Cubby with one multipart POST /api/upload (file field last). */
async function uploadViaForm(req: UploadRequest, report: ProgressReporter): Promise<FileView> {
  const filename = filenameOf(req);
  const mimetype = contentTypeFor(filename, req.file.type);
  const form = new FormData();
  for (const [k, v] of formFields(req, filename, mimetype)) form.append(k, v);
  form.append("file", req.file, filename);

  const sentAuth = authHeader(getAuth());
  const headers: Record<string, string> = { Accept: "application/json" };
  if (sentAuth) headers.Authorization = sentAuth;
  const fileSize = req.file.size;
  report.stage("uploading");
  const res = await sendXhr({
    method: "POST",
    url: `${apiBase()}/api/upload`,
    body: form,
    headers,
    signal: req.signal,
    idleMs: req.idleTimeoutMs ?? RAW_UPLOAD_TIMEOUT_MS,
    // The body also holds the other fields; scale its progress to the file's size.
    onSent: (loaded, total) => report.bytes(total > 0 ? (loaded / total) * fileSize : fileSize),
    onDone: () => report.stage("processing"),
  });
  const view = envelopeResult<FileView>(res, sentAuth);
  report.stage("completed");
  return view;
}

/** Uploads with presign → PUT → commit. */
async function uploadViaPresign(req: UploadRequest, report: ProgressReporter): Promise<FileView> {
  const filename = filenameOf(req);
  const o = req.options;
  report.stage("initializing");
  let presigned: PresignResult;
  try {
    presigned = await api<PresignResult>("/s3/presign", {
      method: "POST",
      body: {
        filename,
        size: req.file.size,
        mimetype: contentTypeFor(filename, req.file.type),
        s3_config_id: o.s3ConfigId || undefined,
        slug: o.slug || undefined,
      },
      signal: req.signal,
    });
  } catch (err) {
    throw cancelledOr(err, req.signal, "presign_failed");
  }

  report.stage("uploading");
  const res = await sendXhr({
    method: "PUT",
    url: presigned.upload_url,
    body: req.file,
    headers: { "Content-Type": presigned.contentType },
    signal: req.signal,
    idleMs: req.idleTimeoutMs ?? RAW_UPLOAD_TIMEOUT_MS,
    onSent: (loaded) => report.bytes(loaded),
  }).catch((err) => {
    // A browser PUT straight to a bucket fails like a network error when CORS is missing.
    if (err instanceof ApiError && err.code === "upload_network_error") {
      throw new ApiError(err.code, 0, null, null, { direct: presigned.provider_type !== "local" });
    }
    throw err;
  });
  if (res.status < 200 || res.status >= 300) {
    throw new ApiError("upload_failed", res.status, null, null, { status: res.status });
  }
  const etag = res.header("ETag")?.replaceAll('"', "") || undefined;

  report.stage("completing");
  try {
    const view = await api<FileView>("/s3/commit", {
      method: "POST",
      body: {
        file_id: presigned.file_id,
        s3_config_id: o.s3ConfigId || undefined,
        storage_path: presigned.storage_path,
        s3_url: presigned.s3_url,
        filename,
        mimetype: presigned.contentType,
        size: req.file.size,
        etag,
        slug: o.slug || undefined,
        remark: o.remark || undefined,
        password: o.password || undefined,
        expires_in: o.expiresIn ?? 0,
        max_views: o.maxViews ?? 0,
        use_proxy: o.useProxy,
      },
      signal: req.signal,
    });
    report.stage("completed");
    return view;
  } catch (err) {
    throw cancelledOr(err, req.signal, "upload_failed");
  }
}

/** Maps an aborted JSON call to `upload_cancelled`, and a codeless failure to `fallback`. */
function cancelledOr(err: unknown, signal: AbortSignal | undefined, fallback: string): unknown {
  if (signal?.aborted) return new ApiError("upload_cancelled", 0, null);
  if (err instanceof ApiError && err.code === "request_failed") {
    return new ApiError(fallback, err.status, err.serverMessage, err.data);
  }
  return err;
}

/**
 * Uploads one file and resolves with the new share. Progress goes to `onProgress`.
 * Throws ApiError: upload_cancelled, upload_network_error, request_timeout, upload_failed,
 * presign_failed, or the server's code (file_too_large, storage_quota_exceeded, slug_taken…).
 */
export async function uploadFile(req: UploadRequest): Promise<FileView> {
  const report = new ProgressReporter(req.file.size, req.onProgress);
  report.stage("starting");
  if (req.signal?.aborted) throw new ApiError("upload_cancelled", 0, null);
  return req.method === "presign"
    ? await uploadViaPresign(req, report)
    : await uploadViaForm(req, report);
}
