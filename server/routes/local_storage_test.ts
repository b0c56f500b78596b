/**
 * Signed local-storage URLs (`/api/storage/local/<config>/<key>`): a signature covers the
 * whole operation (config, key, op, expiry and every bound parameter), so swapping any one
 * part is refused with 403 and touches nothing, while the URL as issued still works.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import type { StorageDriver } from "../storage/driver.ts";

const KEY = "sub/inside.txt";
const encoder = new TextEncoder();

async function driverOf(t: TestApp, id: string): Promise<StorageDriver> {
  const svc = t.services.storageConfigs;
  return await svc.driverFor(await svc.getRecord(id));
}

async function textOf(d: StorageDriver, key: string): Promise<string> {
  return await new Response((await d.get(key)).body).text();
}

/** Two local configs, A (the default) and B, each holding its own `sub/inside.txt`. */
async function twoConfigs(t: TestApp) {
  const admin = await t.adminAuth();
  const list = (await (await t.request("/api/s3-configs", { auth: admin })).json()).data;
  const a: string = list.find((c: { provider_type: string }) => c.provider_type === "local").id;
  const b = (await t.createLocalConfig("b")).id;
  const da = await driverOf(t, a);
  const db = await driverOf(t, b);
  await da.put(KEY, encoder.encode("A inside"));
  await da.put("sub/other.txt", encoder.encode("A other"));
  await db.put(KEY, encoder.encode("B inside"));
  return { a, b, da, db };
}

/** The URL with one change applied. */
function swap(url: string, change: (u: URL) => void): string {
  const u = new URL(url, "http://127.0.0.1");
  change(u);
  return u.pathname + u.search;
}

const setParam = (name: string, value: string) => (u: URL) => u.searchParams.set(name, value);
const dropParam = (name: string) => (u: URL) => u.searchParams.delete(name);
const bumpExp = (u: URL) =>
  u.searchParams.set("exp", String(Number(u.searchParams.get("exp")) + 1));
const otherKey = (u: URL) => u.pathname = u.pathname.replace("/sub/inside.txt", "/sub/other.txt");

Deno.test("signed local GET: every swapped part is refused, the issued URL works", async () => {
  await using t = await createTestApp();
  const { a, b, da } = await twoConfigs(t);
  const url = await da.presignGet(KEY, {
    expiresIn: 600,
    filename: "inside.txt",
    contentType: "text/plain",
    download: true,
  });
  const ok = await t.request(url);
  assert.equal(ok.status, 200);
  assert.equal(await ok.text(), "A inside");

  const cases: [string, string, string?][] = [
    ["config swapped", swap(url, (u) => u.pathname = u.pathname.replace(`/${a}/`, `/${b}/`))],
    ["path swapped", swap(url, otherKey)],
    ["op swapped", swap(url, setParam("op", "put"))],
    ["op swapped, as PUT", swap(url, setParam("op", "put")), "PUT"],
    ["GET URL used to PUT", url, "PUT"],
    ["expiry swapped", swap(url, bumpExp)],
    ["filename swapped", swap(url, setParam("filename", "evil.html"))],
    ["content type swapped", swap(url, setParam("ct", "text/html"))],
    ["download flag dropped", swap(url, dropParam("dl"))],
    ["parameter added", swap(url, setParam("size", "8"))],
    ["signature dropped", swap(url, dropParam("sig"))],
  ];
  for (const [name, bad, method = "GET"] of cases) {
    const res = await t.request(bad, {
      method,
      body: method === "PUT" ? "overwritten" : undefined,
    });
    const text = await res.text();
    assert.equal(res.status, 403, `${name}: ${res.status} ${text}`);
    assert.ok(!text.includes("inside"), `${name} leaked a body`);
  }
});

Deno.test("signed local PUT and part PUT: every swapped part is refused and writes nothing", async () => {
  await using t = await createTestApp();
  const { a, b, da, db } = await twoConfigs(t);
  const body = "A replaced";
  const put = await da.presignPut(KEY, {
    expiresIn: 600,
    contentType: "text/plain",
    size: body.length,
  });
  const uploadId = await da.createMultipart(KEY);
  const part = await da.presignPart(KEY, uploadId, 1, { expiresIn: 600 });
  const toB = (u: URL) => u.pathname = u.pathname.replace(`/${a}/`, `/${b}/`);

  const cases: [string, string, string?][] = [
    ["put: config swapped", swap(put, toB)],
    ["put: path swapped", swap(put, otherKey)],
    ["put: op swapped to part", swap(put, setParam("op", "part"))],
    ["put: op swapped to get", swap(put, setParam("op", "get")), "GET"],
    ["put: expiry swapped", swap(put, bumpExp)],
    ["put: content type swapped", swap(put, setParam("ct", "text/html"))],
    ["put: size swapped", swap(put, setParam("size", String(body.length + 1)))],
    ["put: size dropped", swap(put, dropParam("size"))],
    ["part: config swapped", swap(part, toB)],
    ["part: path swapped", swap(part, otherKey)],
    ["part: op swapped to put", swap(part, setParam("op", "put"))],
    ["part: expiry swapped", swap(part, bumpExp)],
    ["part: upload id swapped", swap(part, setParam("uploadId", "01ARZ3NDEKTSV4RRFFQ69G5FAV"))],
    ["part: part number swapped", swap(part, setParam("partNumber", "2"))],
    ["part: parameter added", swap(part, setParam("ct", "text/plain"))],
  ];
  for (const [name, bad, method = "PUT"] of cases) {
    const res = await t.request(bad, { method, body: method === "PUT" ? body : undefined });
    const text = await res.text();
    assert.equal(res.status, 403, `${name}: ${res.status} ${text}`);
  }
  assert.equal(await textOf(da, KEY), "A inside");
  assert.equal(await textOf(da, "sub/other.txt"), "A other");
  assert.equal(await textOf(db, KEY), "B inside", "config B's file is untouched");
  assert.deepEqual(await da.listParts(KEY, uploadId), [], "no part was written");

  // The bound size is the only size accepted.
  const longer = await t.request(put, { method: "PUT", body: body + "!" });
  assert.equal(longer.status, 400);
  assert.equal(longer.headers.get("x-error-code"), "storage_size_mismatch");
  await longer.body?.cancel();
  assert.equal(await textOf(da, KEY), "A inside");

  // The URLs as issued still work.
  const okPut = await t.request(put, { method: "PUT", body });
  assert.equal(okPut.status, 200, await okPut.clone().text());
  await okPut.body?.cancel();
  assert.equal(await textOf(da, KEY), body);
  const okPart = await t.request(part, { method: "PUT", body: "part one" });
  assert.equal(okPart.status, 200, await okPart.clone().text());
  await okPart.body?.cancel();
  assert.deepEqual((await da.listParts(KEY, uploadId)).map((p) => p.partNumber), [1]);
  assert.equal(await textOf(db, KEY), "B inside");
});

Deno.test("signed local PUT: an Idempotency-Key is ignored (a signed PUT is no principal's write), and errors stay plain text", async () => {
  await using t = await createTestApp();
  const { a } = await twoConfigs(t);
  const unsigned = await t.request(`/api/storage/local/${a}/${KEY}`, {
    method: "PUT",
    body: "x",
    headers: { "idempotency-key": "bad key with spaces" },
  });
  assert.equal(unsigned.status, 403, await unsigned.clone().text());
  assert.match(unsigned.headers.get("content-type") ?? "", /^text\/plain/);
  assert.notEqual(unsigned.headers.get("x-error-code"), "idempotency_key_invalid");
  await unsigned.body?.cancel();
});
