/**
 * Fetching preview content. Text previews read at most TEXT_PREVIEW_MAX_BYTES with a Range
 * request (and stop reading if the server sends the whole file anyway), so a large log does not
 * hang the page. Failures keep the HTTP status so the page can say "the link may have expired".
 */
import { apiHref } from "../files_api.ts";

/** Text previews show at most the first 1 MiB. */
export const TEXT_PREVIEW_MAX_BYTES = 1024 * 1024;

/** A failed preview request; `status` is 0 for network failures. */
export class PreviewError extends Error {
  constructor(readonly status: number) {
    super(`preview request failed with status ${status}`);
    this.name = "PreviewError";
  }
}

export type TextPreview = {
  text: string;
  /** The file is longer than what was read. */
  truncated: boolean;
  /** The bytes look binary (NUL bytes near the start). */
  binary: boolean;
};

/** Reads the start of a file as UTF-8 text; throws PreviewError. */
export async function fetchPreviewText(
  url: string,
  size: number,
  signal?: AbortSignal,
  maxBytes = TEXT_PREVIEW_MAX_BYTES,
): Promise<TextPreview> {
  if (size === 0) return { text: "", truncated: false, binary: false };
  let res: Response;
  try {
    res = await fetch(apiHref(url), {
      headers: { Range: `bytes=0-${Math.min(size, maxBytes) - 1}` },
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new PreviewError(0);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new PreviewError(res.status);
  }
  const bytes = await readAtMost(res, maxBytes);
  const truncated = size > bytes.length;
  let text = new TextDecoder("utf-8").decode(bytes);
  // A cut can split the last character; drop its replacement character.
  if (truncated) text = text.replace(/\uFFFD$/, "");
  return { text, truncated, binary: looksBinary(bytes.subarray(0, 8192), text.slice(0, 8192)) };
}

/** NUL bytes, or many undecodable or control characters, near the start. */
function looksBinary(head: Uint8Array, text: string): boolean {
  if (head.includes(0)) return true;
  if (text.length === 0) return false;
  // Control characters are exactly what this looks for.
  // deno-lint-ignore no-control-regex
  const odd = text.match(/[\uFFFD\x01-\x08\x0E-\x1A\x1C-\x1F\x7F]/g)?.length ?? 0;
  return odd / text.length > 0.1;
}

async function readAtMost(res: Response, maxBytes: number): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.length;
  }
  if (total >= maxBytes) await reader.cancel().catch(() => {});
  const out = new Uint8Array(Math.min(total, maxBytes));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
    if (at >= out.length) break;
  }
  return out;
}

/**
 * The status of a preview link, learnt from one byte of it, after a media element failed to
 * load (elements do not expose HTTP statuses). 0 when the server cannot be reached.
 */
export async function probePreviewStatus(url: string): Promise<number> {
  try {
    const res = await fetch(apiHref(url), { headers: { Range: "bytes=0-0" } });
    await res.body?.cancel().catch(() => {});
    return res.status;
  } catch {
    return 0;
  }
}
