/**
 * Server-side fetches of user-given URLs (URL upload), guarded against request forgery:
 * only http(s); every hop's host is resolved and refused when any address is loopback,
 * private, link-local, unique-local, multicast, reserved or a cloud metadata address;
 * redirects are followed by hand (at most 5) and checked again; time and size are limited.
 * Known gap: the runtime resolves the host again when it connects, so a DNS answer that changes
 * between our check and the connect (rebinding) is not caught; the redirect and literal-IP
 * checks still hold.
 */
import ipaddr from "ipaddr.js";
import { isIP } from "node:net";
import { AppError } from "../errors.ts";

const MAX_REDIRECTS = 5;
const BLOCKED_HOSTS = new Set(["metadata.google.internal", "metadata", "instance-data"]);

export type FetchGuardOptions = { allowLoopback: boolean; timeoutMs: number };

/** True when an address must never be fetched from the server. */
export function isForbiddenAddress(address: string, allowLoopback = false): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (range === "loopback") return !allowLoopback;
  if (range === "unicast") return address === "169.254.169.254";
  return true;
}

async function resolveAll(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const out: string[] = [];
  for (const type of ["A", "AAAA"] as const) {
    try {
      out.push(...await Deno.resolveDns(host, type));
    } catch { /* no records of this type */ }
  }
  return out;
}

/** Throws 400 url_forbidden when the URL may not be fetched. */
export async function assertFetchable(url: URL, allowLoopback: boolean): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AppError("url_invalid", 400, { url: url.toString() });
  }
  if (url.username || url.password) throw new AppError("url_invalid", 400);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (BLOCKED_HOSTS.has(host)) throw new AppError("url_forbidden", 400, { host });
  const addresses = await resolveAll(host);
  if (addresses.length === 0) throw new AppError("url_unreachable", 400, { host });
  for (const a of addresses) {
    if (isForbiddenAddress(a, allowLoopback)) throw new AppError("url_forbidden", 400, { host });
  }
}

/** Fetches a user URL with the guard; the caller must consume or cancel the body. */
export async function guardedFetch(
  raw: string,
  opts: FetchGuardOptions & { method?: "GET" | "HEAD"; signal?: AbortSignal },
): Promise<{ response: Response; finalUrl: URL }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("url_invalid", 400);
  }
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    await assertFetchable(url, opts.allowLoopback);
    let res: Response;
    try {
      res = await fetch(url, { method: opts.method ?? "GET", redirect: "manual", signal });
    } catch (err) {
      throw new AppError("url_unreachable", 400, { host: url.hostname, message: String(err) });
    }
    if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
      await res.body?.cancel();
      url = new URL(res.headers.get("location")!, url);
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new AppError("url_unreachable", 400, { host: url.hostname, status: res.status });
    }
    return { response: res, finalUrl: url };
  }
  throw new AppError("url_unreachable", 400, { message: "too many redirects" });
}

/** The file name a URL download should get: Content-Disposition, else the last path segment. */
export function filenameFromResponse(res: Response, url: URL): string {
  const cd = res.headers.get("content-disposition") ?? "";
  const star = cd.match(/filename\*=UTF-8''([^;]+)/i);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch { /* fall through */ }
  }
  const plain = cd.match(/filename="?([^";]+)"?/i);
  if (plain) return plain[1];
  const last = url.pathname.split("/").filter(Boolean).pop();
  try {
    return last ? decodeURIComponent(last) : "download";
  } catch {
    return last ?? "download";
  }
}
