/**
 * A bounded, deterministic fuzz of the whole app (issue 8, finding 5): random methods, paths
 * from every route family (the route table is read from the Hono app itself), random query
 * strings, bodies and headers, sent as the admin, as an API key, anonymously and with garbage
 * credentials. It asserts that nothing answers 5xx, and that every error on a JSON route is the
 * envelope with a catalogue code (byte routes may answer plain text with `X-Error-Code`).
 * The seed is fixed, so a failure replays exactly; the printed case names the request.
 */
import assert from "node:assert/strict";
import { ALL_KEY_PERMISSIONS, createTestApp, type TestApp } from "../tests/helpers/app.ts";
import { ERROR_CATALOGUE } from "../shared/errors.ts";
import {
  fillPath,
  type Fixtures,
  LONG,
  METHODS,
  NAME_300,
  prng,
  randomBody,
  randomHeaders,
  randomQuery,
} from "../tests/helpers/fuzz_inputs.ts";

const SEED = 0x5eed_2026;
/** Random requests, after the systematic pass over every route (see `edgeCases`). */
const RANDOM_REQUESTS = 1_800;

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
  const all = ALL_KEY_PERMISSIONS;
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
    await using t = await createTestApp();
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
  },
});
