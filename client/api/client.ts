/**
 * The API client: JSON envelope, Authorization header, timeouts, and the error mapping of
 * docs/PRODUCT.md §8.3. Every failure becomes an ApiError whose `code` is a catalogue code
 * (errors.<code>).
 */
import { authHeader, clearAuth, getAuth } from "../auth/auth_store.ts";
import { REQUEST_TIMEOUT_MS } from "../../shared/constants.ts";
import { OFFLINE_COPY_HEADER } from "../../shared/pwa.ts";

export type Envelope<T> = {
  code: number;
  message: string;
  data: T;
  success: boolean;
  error?: string;
};

export class ApiError extends Error {
  constructor(
    /** Catalogue code for errors.<code>. */
    readonly code: string,
    /** HTTP status, 0 for network failures. */
    readonly status: number,
    /** The server's message, already localised, when there was one. */
    readonly serverMessage: string | null,
    readonly data: unknown = null,
    readonly params: Record<string, unknown> = {},
  ) {
    super(serverMessage ?? code);
    this.name = "ApiError";
  }
}

export type RequestOptions = {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Send no Authorization header (public share routes). */
  anonymous?: boolean;
  headers?: Record<string, string>;
};

/** The base URL: runtime config, then localStorage, then same origin. */
export function apiBase(): string {
  const runtime = (globalThis as { __CUBBY_CONFIG__?: { apiBase?: string } }).__CUBBY_CONFIG__;
  return runtime?.apiBase ?? globalThis.localStorage?.getItem("cubby.apiBase") ?? "";
}

function buildUrl(path: string, query?: RequestOptions["query"]): string {
  const url = `${apiBase()}/api${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null) params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/**
 * Maps a failed response to an ApiError, logging out on expired credentials (docs/PRODUCT.md §8.3).
 */
function toApiError(
  status: number,
  body: Partial<Envelope<unknown>> | null,
  sentAuth: string | null,
) {
  const serverMessage = body?.message ?? null;
  const serverCode = body?.error;
  if (status === 401) {
    const expired = serverCode === undefined || serverCode === "unauthorized" ||
      serverCode === "session_expired" || serverCode === "invalid_token" ||
      serverCode === "api_key_invalid";
    if (sentAuth?.startsWith("Bearer ") && expired) {
      clearAuth("session_expired");
      return new ApiError("session_expired", 401, null, body?.data);
    }
    if (sentAuth?.startsWith("ApiKey ") && expired) {
      clearAuth("api_key_invalid");
      return new ApiError("api_key_invalid", 401, null, body?.data);
    }
    // Anything else (a wrong share or current password, a permission message) is shown as is
    // and keeps the user logged in.
    return new ApiError(serverCode ?? "unauthorized", 401, serverMessage, body?.data);
  }
  if (status === 409) {
    return new ApiError(serverCode ?? "slug_taken", 409, serverMessage, body?.data);
  }
  if (serverCode) return new ApiError(serverCode, status, serverMessage, body?.data);
  return new ApiError(status ? "http_error" : "request_failed", status, serverMessage, body?.data, {
    status,
  });
}

/** Replies the service worker answered from its cache (the network failed): when saved. */
const offlineCopies = new WeakMap<object, number>();

/**
 * When `data` (a value `api()` returned) is an offline copy the service worker answered
 * because the network failed: the time the copy was saved; else null.
 */
export function offlineSavedAtOf(data: unknown): number | null {
  return typeof data === "object" && data !== null ? offlineCopies.get(data) ?? null : null;
}

/** Calls an /api route and returns `data` of the envelope; throws ApiError. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
  const sentAuth = opts.anonymous ? null : authHeader(getAuth());
  if (sentAuth) headers.Authorization = sentAuth;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof Blob) body = opts.body;
  else if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort("timeout"), opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? "GET",
      headers,
      body,
      signal,
    });
  } catch (err) {
    if (timeout.signal.aborted) throw new ApiError("request_timeout", 0, null);
    if (opts.signal?.aborted) throw new ApiError("request_aborted", 0, null);
    throw new ApiError("network_error", 0, err instanceof Error ? null : null);
  } finally {
    clearTimeout(timer);
  }
  let json: Envelope<T> | null = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (res.status === 200 || res.status === 201 || res.status === 202) {
    if (json && json.success !== false) {
      const copy = Number(res.headers.get(OFFLINE_COPY_HEADER));
      if (copy > 0 && typeof json.data === "object" && json.data !== null) {
        offlineCopies.set(json.data, copy);
      }
      return json.data;
    }
    throw toApiError(res.status, json, sentAuth);
  }
  throw toApiError(res.status, json, sentAuth);
}
