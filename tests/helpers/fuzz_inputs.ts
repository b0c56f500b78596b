/**
 * Hostile request parts for the fuzz test (server/app_fuzz_test.ts), all drawn from a seeded
 * PRNG so that a run replays exactly: path segments, query strings, JSON of wrong types, huge
 * strings, garbage bytes, (truncated) multipart forms, WebDAV XML and headers.
 */
import { DAV_METHODS } from "../../server/webdav/webdav_http.ts";

/** mulberry32: a small deterministic PRNG. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rng = ReturnType<typeof prng>;

export const LONG = "a".repeat(3_000);
export const NAME_300 = "n".repeat(300);
export const WEIRD_SEGMENTS = [
  LONG,
  NAME_300,
  "%E0%A4%A",
  "%ZZ",
  "%",
  "%00",
  "..",
  "%2e%2e",
  "a%2Fb",
  "%5c..%5c",
  "文件",
  "%F0%9F%98%80",
  " ",
  "a b",
  "x.txt;",
  "-_-",
  "null",
  "0",
];
/** The HTTP methods, then the ones only WebDAV answers, each once. */
export const METHODS = [
  ...new Set(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", ...DAV_METHODS]),
];
export const QUERY_KEYS = [
  "path",
  "password",
  "t",
  "url",
  "q",
  "limit",
  "offset",
  "page",
  "expires_in",
  "force_download",
  "group",
  "scope",
  "mount_id",
  "refresh",
  "metadata",
  "includeSystem",
  "key",
  "validate",
  "sig",
  "exp",
  "download",
  "filename",
];
export const SCALARS = [
  "",
  "-1",
  "0",
  "1e309",
  "NaN",
  "abc",
  "null",
  "true",
  "[]",
  "{}",
  "/",
  "/m",
  "/m/a.txt",
  `/m/${NAME_300}`,
  `/m/${NAME_300}/x`,
  "/../etc/passwd",
  "/m/%2e%2e/x",
  "/m/文件",
  LONG,
  "%E0%A4%A",
  "2026-13-45T99:00:00Z",
  "http://127.0.0.1:1/x",
  "ftp://x",
];
export const FIELDS = [
  "content",
  "password",
  "slug",
  "remark",
  "expires_at",
  "expires_in",
  "max_views",
  "username",
  "name",
  "permissions",
  "ids",
  "paths",
  "path",
  "oldPath",
  "newPath",
  "items",
  "url",
  "file_id",
  "storage_path",
  "s3_config_id",
  "filename",
  "size",
  "mimetype",
  "parts",
  "upload_id",
  "uploadId",
  "key",
  "mount_path",
  "storage_type",
  "storage_config_id",
  "cache_ttl",
  "provider_type",
  "endpoint_url",
  "bucket_name",
  "custom_key",
  "basic_path",
  "use_proxy",
  "is_active",
  "modules",
  "mode",
  "data",
  "metadata",
  "currentPassword",
  "newPassword",
  "newUsername",
  "targetMountId",
  "files",
  "skipExisting",
  "delete_mode",
  "clearExpired",
  "partNumber",
  "contentType",
  "settings",
  "role",
  "is_guest",
];

/** A random JSON value of any type, nested at most two levels. */
export function randomValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 1 ? 7 : 10)) {
    case 0:
      return null;
    case 1:
      return r.pick([0, -1, 1, 1.5, 1e308, -0, 2 ** 53 + 1]);
    case 2:
      return r.chance(0.5);
    case 3:
    case 4:
      return r.pick(SCALARS);
    case 5:
      return r.pick(WEIRD_SEGMENTS);
    case 6:
      return "x".repeat(r.pick([1, 51, 256, 70_000]));
    case 7:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    default:
      return randomObject(r, depth + 1);
  }
}

/** An object of known field names with random values. */
export function randomObject(r: Rng, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = r.int(6); i > 0; i--) out[r.pick(FIELDS)] = randomValue(r, depth);
  return out;
}

/** `n` random bytes. */
export function garbageBytes(r: Rng, n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = r.int(256);
  return out;
}

/** A multipart form with random fields, the file before or after them. */
export function randomForm(r: Rng): FormData {
  const fd = new FormData();
  const fileFirst = r.chance(0.5);
  const addFields = () => {
    for (let i = r.int(5); i > 0; i--) fd.append(r.pick(FIELDS), String(randomValue(r, 2)));
  };
  if (!fileFirst) addFields();
  if (r.chance(0.8)) {
    const name = r.pick(["a.txt", NAME_300 + ".txt", "", "../x", "文件.md", "a\0b"]);
    fd.append("file", new Blob([garbageBytes(r, r.int(2_000))]), name);
  }
  if (fileFirst) addFields();
  return fd;
}

/** A multipart body cut off in the middle of its file part. */
export function truncatedMultipart(r: Rng): { body: Uint8Array; type: string } {
  const boundary = "fuzzboundary" + r.int(1e6);
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n` +
    `Content-Type: text/plain\r\n\r\n`;
  const bytes = new Uint8Array([...new TextEncoder().encode(head), ...garbageBytes(r, 500)]);
  return { body: bytes, type: `multipart/form-data; boundary=${boundary}` };
}

export type Body = { body?: BodyInit; type?: string };

/** A random body with its content type (or none). */
export function randomBody(r: Rng): Body {
  switch (r.int(10)) {
    case 0:
      return {};
    case 1:
    case 2:
    case 3:
      return { body: JSON.stringify(randomObject(r)), type: "application/json" };
    case 4:
      return { body: JSON.stringify(randomValue(r)), type: "application/json" };
    case 5:
      return {
        body: r.pick(["{", '{"a":', "[1,2", "\u0000", "nul", '{"content": "\ud800"}']),
        type: "application/json",
      };
    case 6:
      return {
        body: garbageBytes(r, r.int(4_000)) as BodyInit,
        type: r.pick(["application/octet-stream", "application/json", "text/xml", ""]),
      };
    case 7:
      return { body: randomForm(r) };
    case 8:
      return r.chance(0.5)
        ? (({ body, type }) => ({ body: body as BodyInit, type }))(truncatedMultipart(r))
        : { body: "a".repeat(r.pick([100_000, 300_000])), type: "application/json" };
    default:
      return {
        body: r.pick([
          '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>',
          "<D:propfind xmlns:D='DAV:'><D:prop><x:y xmlns:x='z'/>",
          '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/>' +
          "</D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>",
          "<!DOCTYPE x [<!ENTITY a SYSTEM 'file:///etc/passwd'>]><x>&a;</x>",
        ]),
        type: r.pick(["application/xml", "text/xml"]),
      };
  }
}

export type Fixtures = {
  admin: string;
  key: string;
  ids: string[];
  slugs: string[];
};

/** Replaces `:param` and `*` parts of a route path with fixture or hostile values. */
export function fillPath(r: Rng, route: string, fx: Fixtures): string {
  return route.split("/").map((part) => {
    if (part.startsWith(":")) {
      if (r.chance(0.4)) return r.pick([...fx.slugs, ...fx.ids]);
      return r.pick([...WEIRD_SEGMENTS, "abcdef", "01HZZZZZZZZZZZZZZZZZZZZZZZ", "1", "4"]);
    }
    if (part === "*") {
      const segs = Array.from(
        { length: 1 + r.int(3) },
        () => r.pick(["m", "a.txt", "dir", ...WEIRD_SEGMENTS]),
      );
      return segs.join("/");
    }
    return part;
  }).join("/");
}

/** A random query string (often empty). */
export function randomQuery(r: Rng): string {
  if (r.chance(0.4)) return "";
  const parts: string[] = [];
  for (let i = 1 + r.int(3); i > 0; i--) {
    const value = String(r.pick([...SCALARS, ...WEIRD_SEGMENTS]));
    const encoded = r.chance(0.8) ? encodeURIComponent(value) : value;
    parts.push(`${r.pick(QUERY_KEYS)}=${encoded}`);
  }
  return "?" + parts.join("&");
}

/** Random credentials (admin, key, none or garbage) and WebDAV and range headers. */
export function randomHeaders(r: Rng, fx: Fixtures, body: Body): Headers {
  const h = new Headers();
  const who = r.int(10);
  // Garbage credentials come from another client address (see the fetch below), so the
  // failures they count never block the key and admin requests sent from 127.0.0.1.
  if (who === 8) h.set("x-fuzz-client", "10.66.0.1");
  if (who < 4) h.set("authorization", fx.admin);
  else if (who < 7) h.set("authorization", fx.key);
  else if (who === 8) {
    h.set(
      "authorization",
      r.pick([
        "ApiKey wrongwrong",
        "Bearer nope",
        `Basic ${btoa("admin:wrong")}`,
        "Basic !!!",
        "ApiKey " + LONG,
        "Basic",
        "Digest x",
      ]),
    );
  }
  if (body.type !== undefined && body.type !== "") h.set("content-type", body.type);
  if (r.chance(0.15)) {
    h.set(
      "content-type",
      r.pick(["text/plain", "multipart/form-data", "application/x-www-form-urlencoded"]),
    );
  }
  if (r.chance(0.2)) {
    h.set("range", r.pick(["bytes=0-0", "bytes=999999-", "bytes=-", "bytes=5-1", "x"]));
  }
  if (r.chance(0.2)) {
    h.set(
      "destination",
      r.pick([
        "/dav/m/b.txt",
        `http://127.0.0.1/dav/m/${NAME_300}`,
        "garbage",
        "/dav/../x",
        "http://other.example/dav/m/c",
        "/dav/m/%E0%A4%A",
      ]),
    );
  }
  if (r.chance(0.15)) h.set("depth", r.pick(["0", "1", "infinity", "x"]));
  if (r.chance(0.1)) h.set("overwrite", r.pick(["T", "F", "x"]));
  if (r.chance(0.1)) h.set("if", r.pick(["(<urn:x>)", "<http://x> (Not <y>)", "((("]));
  if (r.chance(0.1)) h.set("timeout", r.pick(["Second-1", "Infinite", "x"]));
  if (r.chance(0.1)) h.set("idempotency-key", r.pick(["k1", LONG, ""]));
  if (r.chance(0.2)) h.set("accept-language", r.pick(["en-US", "zh-CN", "x"]));
  return h;
}
