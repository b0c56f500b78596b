/** HTTP Range header parsing for byte routes (file view, download, proxy, WebDAV). */
import { AppError } from "../errors.ts";

export type RequestedRange = { start: number; end?: number } | { suffix: number };

/**
 * Parses a single `bytes=` range. Returns undefined for no/ignored ranges (multi-range requests
 * get the whole body). Suffix ranges need the size, so they come back as {suffix}.
 */
export function parseRange(header: string | undefined | null): RequestedRange | undefined {
  if (!header) return undefined;
  const m = header.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") return { suffix: Number(m[2]) };
  const start = Number(m[1]);
  const end = m[2] === "" ? undefined : Number(m[2]);
  if (end !== undefined && end < start) throw new AppError("range_not_satisfiable", 416);
  return { start, end };
}

/** Resolves a parsed range against the object size; throws 416 when unsatisfiable. */
export function resolveRequestedRange(
  parsed: RequestedRange | undefined,
  size: number,
): { start: number; end?: number } | undefined {
  if (!parsed) return undefined;
  if ("suffix" in parsed) {
    if (parsed.suffix === 0) throw new AppError("range_not_satisfiable", 416);
    return { start: Math.max(0, size - parsed.suffix) };
  }
  if (parsed.start >= size) throw new AppError("range_not_satisfiable", 416);
  return parsed;
}
