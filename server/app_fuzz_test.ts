/**
 * A bounded, deterministic fuzz of the whole app (issue 8, finding 5): random methods, paths
 * from every route family (the route table is read from the Hono app itself), random query
 * strings, bodies and headers, sent as the admin, as an API key, anonymously and with garbage
 * credentials. It asserts that nothing answers 5xx, and that every error on a JSON route is the
 * envelope with a catalogue code (byte routes may answer plain text with `X-Error-Code`).
 * The seed is fixed, so a failure replays exactly; the printed case names the request.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../tests/helpers/app.ts";
import { ERROR_CATALOGUE } from "../shared/errors.ts";

const SEED = 0x5eed_2026;
/** Random requests, after the systematic pass over every route (see `edgeCases`). */
const RANDOM_REQUESTS = 1_800;

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number) {
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
type Rng = ReturnType<typeof prng>;

const LONG = "a".repeat(3_000);
const NAME_300 = "n".repeat(300);
const WEIRD_SEGMENTS = [
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
const METHODS = [
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "HEAD",
  "OPTIONS",
  "PROPFIND",
  "PROPPATCH",
  "MKCOL",
  "COPY",
  "MOVE",
  "LOCK",
  "UNLOCK",
];
const QUERY_KEYS = [
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
const SCALARS = [
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
const FIELDS = [
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

function randomValue(r: Rng, depth = 0): unknown {
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

function randomObject(r: Rng, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = r.int(6); i > 0; i--) out[r.pick(FIELDS)] = randomValue(r, depth);
  return out;
}

function garbageBytes(r: Rng, n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = r.int(256);
  return out;
}

function randomForm(r: Rng): FormData {
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
function truncatedMultipart(r: Rng): { body: Uint8Array; type: string } {
  const boundary = "fuzzboundary" + r.int(1e6);
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n` +
    `Content-Type: text/plain\r\n\r\n`;
  const bytes = new Uint8Array([...new TextEncoder().encode(head), ...garbageBytes(r, 500)]);
  return { body: bytes, type: `multipart/form-data; boundary=${boundary}` };
}

type Body = { body?: BodyInit; type?: string };

function randomBody(r: Rng): Body {
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

type Fixtures = {
  admin: string;
  key: string;
  ids: string[];
  slugs: string[];
};

/** Replaces `:param` and `*` parts of a route path with fixture or hostile values. */
function fillPath(r: Rng, route: string, fx: Fixtures): string {
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

function randomQuery(r: Rng): string {
  if (r.chance(0.4)) return "";
  const parts: string[] = [];
  for (let i = 1 + r.int(3); i > 0; i--) {
    const value = String(r.pick([...SCALARS, ...WEIRD_SEGMENTS]));
    const encoded = r.chance(0.8) ? encodeURIComponent(value) : value;
    parts.push(`${r.pick(QUERY_KEYS)}=${encoded}`);
  }
  return "?" + parts.join("&");
}

function randomHeaders(r: Rng, fx: Fixtures, body: Body): Headers {
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

const BYTE_ROUTES = [
  /^\/api\/raw\//,
  /^\/api\/file-view\//,
  /^\/api\/file-download\//,
  /^\/api\/fs\/download$/,
  /^\/api\/p\//,
  /^\/api\/storage\/local\//,
  /^\/api\/url\/proxy$/,
];

async function setUp(t: TestApp): Promise<Fixtures> {
  const admin = await t.adminAuth();
  const all = {
    text: true,
    file: true,
    mount_view: true,
    mount_upload: true,
    mount_copy: true,
    mount_rename: true,
    mount_delete: true,
    webdav_read: true,
    webdav_manage: true,
  };
  const key = await t.createKey(all);
  const victim = await t.createKey({ text: true });
  const mount = await t.createMount("/m");
  const put = await t.request("/dav/m/a.txt", { method: "PUT", auth: admin, body: "hello" });
  assert.equal(put.status, 201);
  const paste = await t.request("/api/paste", {
    method: "POST",
    auth: admin,
    json: { content: "x" },
  });
  const locked = await t.request("/api/paste", {
    method: "POST",
    auth: admin,
    json: { content: "y", password: "pw", max_views: 3 },
  });
  const fd = new FormData();
  fd.set("file", new Blob(["file body"]), "f.txt");
  const file = await t.request("/api/upload", { method: "POST", auth: admin, body: fd });
  const [p1, p2, f] = [await paste.json(), await locked.json(), await file.json()];
  assert.ok(p1.success && p2.success && f.success, JSON.stringify([p1, p2, f]));
  const configs = (await (await t.request("/api/s3-configs", { auth: admin })).json()).data;
  return {
    admin,
    key: key.auth,
    ids: [victim.id, mount.id, p1.data.id, f.data.id, configs[0].id, "1", "4"],
    slugs: [p1.data.slug, p2.data.slug, f.data.slug],
  };
}

/**
 * The systematic pass: every route with each hostile value in every parameter (and as the
 * `path` query), once as the admin and once as the key, so no route is left to chance.
 */
function edgeCases(routes: { method: string; path: string }[], fx: Fixtures) {
  const out: { method: string; path: string; auth: string }[] = [];
  for (const route of routes) {
    for (const value of [LONG, NAME_300, "%E0%A4%A"]) {
      const filled = route.path.split("/").map((part) =>
        part.startsWith(":") ? value : part === "*" ? `m/${value}` : part
      ).join("/");
      const query = `?path=${encodeURIComponent(`/m/${value}`)}`;
      for (const auth of [fx.admin, fx.key]) {
        out.push({
          method: route.method === "ALL" ? "PROPFIND" : route.method,
          path: filled,
          auth,
        });
        out.push({
          method: route.method === "ALL" ? "MKCOL" : route.method,
          path: filled + query,
          auth,
        });
      }
    }
  }
  return out;
}

/** The route templates to fuzz, read from the app: every concrete method and path. */
function routeTable(t: TestApp): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of t.app.routes) {
    if (r.path === "/*" || r.path === "/api/*") continue;
    // Logging out or changing the password would end the admin session the fuzz relies on.
    if (r.path === "/api/admin/logout" || r.path === "/api/admin/change-password") continue;
    const k = `${r.method} ${r.path}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ method: r.method, path: r.path });
  }
  return out;
}

Deno.test({
  name: "fuzz: random requests over every route family never answer 5xx",
  // Copy and download tasks started by random requests may still run when the app closes.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const t = await createTestApp();
    try {
      const fx = await setUp(t);
      const routes = routeTable(t);
      assert.ok(routes.length > 80, `only ${routes.length} routes found`);
      const extraPaths = [
        "/assets/%E0%A4%A.js",
        "/assets/%ZZ",
        "/icons/%",
        "/paste/%E0%A4%A",
        "/file/" + LONG,
        "/mount-explorer/%ZZ",
        "/api/%E0%A4%A",
        "/dav/%E0%A4%A",
        "/" + LONG,
      ];
      const r = prng(SEED);
      const failures: string[] = [];
      const statuses: Record<number, number> = {};
      const started = Date.now();
      const edges = edgeCases(routes, fx);
      const total = edges.length + RANDOM_REQUESTS;
      for (let i = 0; i < total; i++) {
        const edge = edges[i];
        const route = r.pick(routes);
        let path = r.chance(0.05) ? r.pick(extraPaths) : fillPath(r, route.path, fx);
        path = edge ? edge.path : path + randomQuery(r);
        const method = edge
          ? edge.method
          : r.chance(0.8) && route.method !== "ALL"
          ? route.method
          : r.pick(METHODS);
        const body = method === "GET" || method === "HEAD" ? {} : randomBody(r);
        const headers = randomHeaders(r, fx, body);
        if (edge) {
          headers.set("authorization", edge.auth);
          headers.delete("x-fuzz-client");
        }
        const label = `#${i} ${method} ${path.slice(0, 160)} [${headers.get("content-type")}]`;
        let res: Response;
        try {
          res = await t.app.fetch(
            new Request(new URL(path, "http://127.0.0.1"), { method, headers, body: body.body }),
            {
              remoteAddr: {
                hostname: headers.get("x-fuzz-client") ?? "127.0.0.1",
                port: 1,
                transport: "tcp",
              },
            },
          );
        } catch (err) {
          failures.push(`${label}: threw ${err}`);
          continue;
        }
        const text = method === "HEAD" ? "" : await res.text();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500) {
          failures.push(`${label}: ${res.status} ${text.slice(0, 200)}`);
          continue;
        }
        const pathname = new URL(path, "http://127.0.0.1").pathname;
        if (res.status < 400 || method === "HEAD" || !pathname.startsWith("/api/")) continue;
        const type = res.headers.get("content-type") ?? "";
        const byteRoute = BYTE_ROUTES.some((re) => re.test(pathname));
        if (byteRoute && !type.startsWith("application/json")) {
          const code = res.headers.get("x-error-code") ?? "";
          if (!(code in ERROR_CATALOGUE)) {
            failures.push(`${label}: plain ${res.status} without a catalogue X-Error-Code`);
          }
          continue;
        }
        try {
          const env = JSON.parse(text);
          assert.equal(env.code, res.status);
          assert.equal(env.success, false);
          assert.equal(typeof env.message, "string");
          assert.ok("data" in env);
          assert.ok(env.error in ERROR_CATALOGUE, `unknown error code ${env.error}`);
        } catch (err) {
          failures.push(
            `${label}: ${res.status} not an envelope (${type}): ${text.slice(0, 120)} ${err}`,
          );
        }
      }
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `fuzz: ${total} requests in ${seconds.toFixed(1)} s, ${failures.length} failures`,
        statuses,
      );
      assert.deepEqual(failures.slice(0, 40), [], `${failures.length} failures`);
    } finally {
      await t.close();
    }
  },
});
