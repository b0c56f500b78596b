/**
 * XMLHttpRequest transfers for the uploader: fetch() cannot report upload progress, and its
 * download progress needs a stream reader, so bytes go through XHR, whose progress events give
 * the bytes sent or received. Also: the JSON envelope of an XHR reply, and error mapping.
 */
import { ApiError, type Envelope } from "../../api/client.ts";
import { authHeader, clearAuth, getAuth } from "../../auth/auth_store.ts";

/** An XHR's answer: status, body (text or blob), and its headers. */
export type XhrResult = {
  status: number;
  text: string;
  blob: Blob | null;
  header: (name: string) => string | null;
};

export type XhrOptions = {
  method: string;
  url: string;
  body?: XMLHttpRequestBodyInit | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Fails with `request_timeout` after this long without progress. */
  idleMs: number;
  /** Fails with `request_timeout` after this long in all (e.g. 5 min per part). */
  totalMs?: number;
  /** "blob" for downloads; the default reads text. */
  responseType?: "blob" | "text";
  onSent?: (loaded: number, total: number) => void;
  onUploaded?: () => void;
  /** Download progress; `total` is 0 when the length is unknown. */
  onReceived?: (loaded: number, total: number) => void;
};

/** The Authorization header of the current login, with Accept: application/json. */
export function authHeaders(): { headers: Record<string, string>; sentAuth: string | null } {
  const sentAuth = authHeader(getAuth());
  const headers: Record<string, string> = { Accept: "application/json" };
  if (sentAuth) headers.Authorization = sentAuth;
  return { headers, sentAuth };
}

/**
 * Sends one request. Rejects with ApiError `upload_cancelled` on abort, `request_timeout` after
 * `idleMs` without progress (or `totalMs` in all), and `upload_network_error` on a network
 * failure (a CORS refusal looks the same); any HTTP status resolves.
 */
export function sendXhr(o: XhrOptions): Promise<XhrResult> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) {
      reject(new ApiError("upload_cancelled", 0, null));
      return;
    }
    const xhr = new XMLHttpRequest();
    let timedOut = false;
    let idle: ReturnType<typeof setTimeout> | undefined;
    let whole: ReturnType<typeof setTimeout> | undefined;
    const timeout = () => {
      timedOut = true;
      xhr.abort();
    };
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(timeout, o.idleMs);
    };
    const onAbortSignal = () => xhr.abort();
    const cleanup = () => {
      clearTimeout(idle);
      clearTimeout(whole);
      o.signal?.removeEventListener("abort", onAbortSignal);
    };
    xhr.open(o.method, o.url);
    if (o.responseType === "blob") xhr.responseType = "blob";
    for (const [k, v] of Object.entries(o.headers ?? {})) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      arm();
      if (e.lengthComputable) o.onSent?.(e.loaded, e.total);
    };
    xhr.upload.onload = () => {
      arm();
      o.onUploaded?.();
    };
    xhr.onprogress = (e) => {
      arm();
      o.onReceived?.(e.loaded, e.lengthComputable ? e.total : 0);
    };
    xhr.onload = () => {
      cleanup();
      const isBlob = xhr.responseType === "blob";
      resolve({
        status: xhr.status,
        text: !isBlob && typeof xhr.responseText === "string" ? xhr.responseText : "",
        blob: isBlob ? xhr.response as Blob : null,
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
    o.signal?.addEventListener("abort", onAbortSignal, { once: true });
    arm();
    if (o.totalMs) whole = setTimeout(timeout, o.totalMs);
    xhr.send(o.body ?? null);
  });
}

/** Turns a JSON envelope reply of an /api call into its data, or an ApiError (as api() does). */
export function envelopeResult<T>(res: XhrResult, sentAuth: string | null): T {
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

/** Codes that say nothing specific; an upload step replaces them with its own code. */
const GENERIC = new Set(["request_failed", "http_error", "network_error", "internal"]);

/**
 * Maps a failed JSON call of an upload: `upload_cancelled` when the user cancelled, `fallback`
 * (e.g. `multipart_init_failed`) for a generic failure, else the error as it is.
 */
export function cancelledOr(err: unknown, signal: AbortSignal | undefined, fallback: string) {
  if (signal?.aborted) return new ApiError("upload_cancelled", 0, null);
  if (err instanceof ApiError && GENERIC.has(err.code)) {
    return new ApiError(fallback, err.status, err.serverMessage, err.data, err.params);
  }
  return err;
}

/** A promise that resolves after `ms`, or rejects with `upload_cancelled` on abort. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ApiError("upload_cancelled", 0, null));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ApiError("upload_cancelled", 0, null));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
