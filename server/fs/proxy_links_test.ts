/** ProxyLinkService on a real app's services: who gets a link, and which signatures open it. */
import assert from "node:assert/strict";
import { proxyLinkMessage, proxyPathOf } from "./proxy_links.ts";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { adminAuth } from "../services/auth.ts";
import { AppError } from "../errors.ts";

const ADMIN = adminAuth();

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return `${err.status} ${err.code}`;
}

async function setup(
  t: TestApp,
  mount: Record<string, unknown>,
  settings: Record<string, unknown>,
) {
  await t.createMount("/m", { name: "m", web_proxy: true, ...mount });
  await t.services.settings.updateGroup(1, settings);
  await t.services.fs.upload("/m/d", "a b.txt", new Blob(["proxied"]).stream(), ADMIN);
}

/** The `sign` parameter of a link URL. */
const signOf = (url: string) => new URL(url, "http://x").searchParams.get("sign") ?? undefined;

async function openText(t: TestApp, path: string, sign?: string): Promise<string> {
  const { object } = await t.services.proxyLinks.open(path, sign);
  return await new Response(object.body).text();
}

Deno.test("proxy links: paths are encoded per segment; the message covers mount, store and expiry", () => {
  assert.equal(proxyPathOf("/m/a b/c?d#.txt"), "/api/p/m/a%20b/c%3Fd%23.txt");
  const m = { id: "m1", storage_config_id: "c1" };
  const base = proxyLinkMessage(m, "/m/a", 5);
  assert.notEqual(proxyLinkMessage({ ...m, storage_config_id: "c2" }, "/m/a", 5), base);
  assert.notEqual(proxyLinkMessage({ ...m, id: "m2" }, "/m/a", 5), base);
  assert.notEqual(proxyLinkMessage(m, "/m/a", 6), base);
  assert.notEqual(proxyLinkMessage(m, "/m/a|5", 5), proxyLinkMessage(m, "/m/a", "5|5" as never));
});

Deno.test("proxy links: unsigned when nothing asks for it; a link only for a proxied mount's file", async () => {
  await using t = await createTestApp();
  await setup(t, {}, { proxy_sign_all: false });
  const link = await t.services.proxyLinks.linkFor("/m/d/a b.txt", ADMIN);
  assert.deepEqual(link, { url: "/api/p/m/d/a%20b.txt", signed: false, expires_at: null });
  assert.equal(await openText(t, "/m/d/a b.txt"), "proxied");
  assert.equal(
    await codeOf(t.services.proxyLinks.linkFor("/m/d/none", ADMIN)),
    "404 file_not_found",
  );
  assert.equal(
    await codeOf(t.services.proxyLinks.linkFor("/m", ADMIN)),
    "400 storage_path_invalid",
  );
  await t.createMount("/closed", { name: "closed", web_proxy: false });
  assert.equal(
    await codeOf(t.services.proxyLinks.linkFor("/closed/x", ADMIN)),
    "400 web_proxy_disabled",
  );
  assert.equal(await codeOf(t.services.proxyLinks.open("/closed/x", undefined)), "404 not_found");
  assert.equal(
    await codeOf(t.services.proxyLinks.open("/m/../x", undefined)),
    "400 storage_path_invalid",
  );
});

Deno.test("proxy links: a signed link opens; no, forged or tampered signatures do not", async () => {
  await using t = await createTestApp();
  await setup(t, {}, { proxy_sign_all: true, proxy_sign_expires: 0 });
  const link = await t.services.proxyLinks.linkFor("/m/d/a b.txt", ADMIN);
  assert.equal(link.signed, true);
  assert.equal(link.expires_at, null, "no lifetime: never expires");
  const sign = signOf(link.url)!;
  assert.match(sign, /^0\./);
  assert.equal(await openText(t, "/m/d/a b.txt", sign), "proxied");
  const open = (s?: string) => codeOf(t.services.proxyLinks.open("/m/d/a b.txt", s));
  assert.equal(await open(undefined), "401 proxy_sign_required");
  assert.equal(await open(""), "401 proxy_sign_required", "an empty sign= is none");
  for (const bad of ["0", "0.", "x.abc", `1${sign}`, `${sign}x`, "99999999999999999.a"]) {
    assert.equal(await open(bad), "403 storage_signature_invalid", bad);
  }
  await t.services.fs.upload("/m/d", "other.txt", new Blob(["o"]).stream(), ADMIN);
  assert.equal(
    await codeOf(t.services.proxyLinks.open("/m/d/other.txt", sign)),
    "403 storage_signature_invalid",
    "a signature is for its path only",
  );
});

Deno.test("proxy links: a lifetime set later retires links made without one", async () => {
  await using t = await createTestApp();
  await setup(t, { enable_sign: true, sign_expires: 0 }, { proxy_sign_all: false });
  const forever = signOf((await t.services.proxyLinks.linkFor("/m/d/a b.txt", ADMIN)).url)!;
  assert.equal(await openText(t, "/m/d/a b.txt", forever), "proxied", "the mount asks for signing");
  await t.services.settings.updateGroup(1, { proxy_sign_expires: 60 });
  const open = (s: string) => codeOf(t.services.proxyLinks.open("/m/d/a b.txt", s));
  assert.equal(await open(forever), "403 storage_signature_expired");
  const link = await t.services.proxyLinks.linkFor("/m/d/a b.txt", ADMIN);
  const expires = Date.parse(link.expires_at!);
  assert.ok(Math.abs(expires - (Date.now() + 60_000)) < 5_000);
  assert.equal(await openText(t, "/m/d/a b.txt", signOf(link.url)), "proxied");
});
