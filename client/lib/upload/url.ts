/**
 * URL upload (docs/PRODUCT.md §7.7, §4.3 stages and progress): `url/info` tells the name, size
 * and type; the browser then gets the bytes, first straight from the URL (stage `downloading`,
 * which works when the site allows CORS), else through Cubby's guarded proxy (stage
 * `proxyDownloading`), over 0–49 % of the bar; then it uploads them like a file, with
 * url/presign + url/commit, or url/multipart/* above the multipart threshold, over 50–99 %.
 * Cancelling aborts the download, or the upload, whose pending record is dropped.
 */
import { api, apiBase, ApiError } from "../../api/client.ts";
import { RAW_UPLOAD_TIMEOUT_MS } from "../../../shared/constants.ts";
import type { ProgressReporter } from "./speed.ts";
import { type SimpleUpload, uploadViaPresign, URL_PRESIGN } from "./form.ts";
import { uploadViaMultipart, URL_MULTIPART } from "./share_multipart.ts";
import type { FileView, ShareOptions, UrlInfo } from "./types.ts";
import { authHeaders, sendXhr } from "./xhr.ts";

export const DOWNLOAD_SPAN: [number, number] = [0, 49];
export const UPLOAD_SPAN: [number, number] = [50, 99];

/** Asks the server about a URL (it refuses private and loopback addresses: url_forbidden). */
export function fetchUrlInfo(url: string, signal?: AbortSignal): Promise<UrlInfo> {
  return api<UrlInfo>("/url/info", { method: "POST", body: { url }, signal });
}

type Downloaded = { blob: Blob; filename: string; contentType: string };

/** Reads the URL in the browser; null when the site does not allow it (CORS, mixed content). */
async function downloadDirect(
  info: UrlInfo,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<Downloaded | null> {
  report.phase(DOWNLOAD_SPAN[0], DOWNLOAD_SPAN[1], info.size ?? 0);
  report.stage("downloading");
  let res: Response;
  try {
    res = await fetch(info.url, { signal, mode: "cors", credentials: "omit", cache: "no-store" });
  } catch {
    if (signal?.aborted) throw new ApiError("upload_cancelled", 0, null);
    return null;
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    return null;
  }
  const length = Number(res.headers.get("content-length"));
  if (!info.size && length > 0) report.phase(DOWNLOAD_SPAN[0], DOWNLOAD_SPAN[1], length);
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = res.body.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      report.bytes(loaded);
    }
  } catch {
    if (signal?.aborted) throw new ApiError("upload_cancelled", 0, null);
    return null; // broken off half-way: the proxy tries again
  }
  return {
    blob: new Blob(chunks as BlobPart[], { type: info.content_type }),
    filename: info.filename,
    contentType: info.content_type,
  };
}

/** Reads the URL through GET /api/url/proxy (guarded on the server). */
async function downloadViaProxy(
  info: UrlInfo,
  report: ProgressReporter,
  signal: AbortSignal | undefined,
  idleMs: number,
): Promise<Downloaded> {
  report.phase(DOWNLOAD_SPAN[0], DOWNLOAD_SPAN[1], info.size ?? 0);
  report.stage("proxyDownloading");
  let knownTotal = info.size ?? 0;
  const { headers } = authHeaders();
  const res = await sendXhr({
    method: "GET",
    url: `${apiBase()}/api/url/proxy?url=${encodeURIComponent(info.url)}`,
    headers,
    signal,
    idleMs,
    responseType: "blob",
    onReceived: (loaded, total) => {
      if (!knownTotal && total > 0) {
        knownTotal = total;
        report.phase(DOWNLOAD_SPAN[0], DOWNLOAD_SPAN[1], total);
      }
      report.bytes(loaded);
    },
  });
  if (res.status !== 200 || !res.blob) {
    // Proxy errors are plain text with the code in X-Error-Code.
    const code = res.header("X-Error-Code") ?? (res.status ? "url_unreachable" : "network_error");
    const message = (await res.blob?.text().catch(() => "")) || null;
    throw new ApiError(code, res.status, message, null, { status: res.status });
  }
  let filename = info.filename;
  try {
    filename = decodeURIComponent(res.header("X-Filename") ?? "") || info.filename;
  } catch { /* keep the name from url/info */ }
  return {
    blob: res.blob,
    filename,
    contentType: res.header("X-Content-Type") || info.content_type,
  };
}

/** Downloads a URL and uploads its bytes as a share. Throws ApiError. */
export async function uploadFromUrl(
  req: {
    url: UrlInfo;
    filename?: string;
    options: ShareOptions;
    signal?: AbortSignal;
    idleTimeoutMs?: number;
    multipartThreshold: number;
  },
  report: ProgressReporter,
): Promise<FileView> {
  const idleMs = req.idleTimeoutMs ?? RAW_UPLOAD_TIMEOUT_MS;
  const got = await downloadDirect(req.url, report, req.signal) ??
    await downloadViaProxy(req.url, report, req.signal, idleMs);
  const upload: SimpleUpload = {
    blob: got.blob,
    filename: req.filename?.trim() || got.filename,
    mimetype: got.contentType,
    options: req.options,
    signal: req.signal,
    idleTimeoutMs: idleMs,
  };
  if (got.blob.size > req.multipartThreshold) {
    const o = { routes: URL_MULTIPART, resumeKey: null, span: UPLOAD_SPAN };
    return await uploadViaMultipart(upload, report, o);
  }
  return await uploadViaPresign(upload, report, URL_PRESIGN, UPLOAD_SPAN);
}
