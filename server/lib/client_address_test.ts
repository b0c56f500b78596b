/**
 * The client address behind proxies: X-Forwarded-For is read from the right, only through
 * trusted proxies (loopback unless TRUST_PROXY says otherwise), and rate limits see that address.
 */
import assert from "node:assert/strict";
import { parseTrustProxy, peerAddress, TrustedProxies } from "./client_address.ts";
import { ADMIN, createTestApp } from "../../tests/helpers/app.ts";
import { createApp } from "../app.ts";
import { DEFAULT_RATE_LIMITS, type RateLimits } from "../config.ts";

const LOOPBACK = ["127.0.0.0/8", "::1/128"];
const PRIVATE = [
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "169.254.0.0/16",
  "fc00::/7",
  "fe80::/10",
];

Deno.test("TRUST_PROXY: loopback by default, words, addresses and ranges; anything else refused", () => {
  assert.deepEqual(parseTrustProxy(undefined), LOOPBACK);
  assert.deepEqual(parseTrustProxy(""), LOOPBACK);
  // The old switch: a proxy on this host or on a private network.
  assert.deepEqual(parseTrustProxy("1"), [...LOOPBACK, ...PRIVATE]);
  assert.deepEqual(parseTrustProxy("true"), [...LOOPBACK, ...PRIVATE]);
  for (const none of ["none", "0", "false", " NONE "]) assert.deepEqual(parseTrustProxy(none), []);
  assert.deepEqual(parseTrustProxy("10.1.0.0/16, 192.0.2.7,loopback, 2001:DB8::/32"), [
    "10.1.0.0/16",
    "192.0.2.7/32",
    ...LOOPBACK,
    "2001:db8::/32",
  ]);
  for (const bad of ["yes", "10.0.0.0/33", "1.2.3", "loopback,,private", "none,loopback"]) {
    assert.throws(() => parseTrustProxy(bad), /Invalid TRUST_PROXY/, bad);
  }
});

Deno.test("the client is the right-most X-Forwarded-For entry that is not a trusted proxy", () => {
  const loopback = new TrustedProxies(parseTrustProxy(undefined));
  const lan = new TrustedProxies(parseTrustProxy("loopback,private"));
  const cases: [TrustedProxies, string, string, string][] = [
    // [trusted, peer, X-Forwarded-For, client]
    [loopback, "127.0.0.1", "198.51.100.7", "198.51.100.7"],
    // The left part is whatever the client sent; the proxy appended the real peer.
    [loopback, "127.0.0.1", "203.0.113.1, 198.51.100.7", "198.51.100.7"],
    [loopback, "127.0.0.1", "127.0.0.1, 198.51.100.7", "198.51.100.7"],
    // A chain of trusted proxies is walked through.
    [lan, "10.0.0.2", "203.0.113.1, 198.51.100.7, 10.0.0.1", "198.51.100.7"],
    [loopback, "127.0.0.1", "203.0.113.1, 198.51.100.7, 10.0.0.1", "10.0.0.1"],
    // Every entry trusted: the left-most, the last trusted hop.
    [lan, "127.0.0.1", "10.0.0.5, 10.0.0.1", "10.0.0.5"],
    // A malformed entry ends the walk at the last trusted hop.
    [loopback, "127.0.0.1", "198.51.100.7, not-an-address", "127.0.0.1"],
    [lan, "10.0.0.2", "198.51.100.7, 1.2.3.4:80, 10.0.0.1", "10.0.0.1"],
    [loopback, "127.0.0.1", "198.51.100.7, ", "127.0.0.1"],
    [loopback, "127.0.0.1", "", "127.0.0.1"],
    // IPv6, written in any form, comes out in one form.
    [loopback, "::1", "2001:DB8:0:0::abcd", "2001:db8::abcd"],
    [lan, "fd00::2", "2001:db8::1, fd00::1", "2001:db8::1"],
    // IPv4-mapped IPv6 counts as IPv4, for the peer and for entries.
    [loopback, "::ffff:127.0.0.1", "198.51.100.7", "198.51.100.7"],
    [lan, "127.0.0.1", "198.51.100.7, ::ffff:10.0.0.1", "198.51.100.7"],
    [loopback, "127.0.0.1", "::ffff:198.51.100.7", "198.51.100.7"],
  ];
  for (const [trusted, peer, xff, client] of cases) {
    assert.deepEqual(trusted.resolve(peer, xff), { address: client, untrusted: false }, xff);
  }
  // A peer that is not trusted is the client, whatever it forwards; so is every peer with none.
  assert.deepEqual(loopback.resolve("10.0.0.2", "198.51.100.7"), {
    address: "10.0.0.2",
    untrusted: true,
  });
  const none = new TrustedProxies([]);
  assert.equal(none.none, true);
  assert.deepEqual(none.resolve("127.0.0.1", "198.51.100.7"), {
    address: "127.0.0.1",
    untrusted: true,
  });
  assert.deepEqual(none.resolve("::ffff:203.0.113.5", "x").address, "203.0.113.5");
  assert.equal(peerAddress("::ffff:203.0.113.5"), "203.0.113.5");
  assert.equal(peerAddress("::ffff:cb00:7105"), "203.0.113.5");
  assert.equal(peerAddress("2001:db8::1"), "2001:db8::1");
});

/** Five free logins per subject, and no waiting after them: the sixth attempt is refused. */
function strictLogins(): RateLimits {
  const login = { free: 5, delayMs: 60_000, maxDelayMs: 60_000, maxHoldMs: 0, forgetMs: 60_000 };
  return { ...structuredClone(DEFAULT_RATE_LIMITS), login };
}

const wrong = { username: ADMIN.username, password: "wrong" };

Deno.test("behind nginx (TRUST_PROXY=1), the address nginx appended is the subject, not the spoofed one", async () => {
  await using t = await createTestApp({ TRUST_PROXY: "1" }, { rateLimits: strictLogins() });
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    // The client sends `X-Forwarded-For: 203.0.113.$i`; nginx appends the address it saw.
    const res = await t.request("/api/admin/login", {
      method: "POST",
      json: wrong,
      headers: { "x-forwarded-for": `203.0.113.${i}, 198.51.100.7` },
    });
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(7).fill(429)]);
  // Another client behind the same proxy is not slowed.
  const other = await t.request("/api/admin/login", {
    method: "POST",
    json: ADMIN,
    headers: { "x-forwarded-for": "203.0.113.1, 198.51.100.8" },
  });
  assert.equal(other.status, 200);
  await other.body?.cancel();
});

Deno.test("by default only a loopback proxy is trusted; an untrusted proxy is warned about once", async () => {
  await using t = await createTestApp({}, { rateLimits: strictLogins() });
  const logs: string[] = [];
  const app = createApp({ services: t.services, log: (msg) => logs.push(msg) });
  const login = async (peer: string, headers: Record<string, string>) => {
    const res = await app.fetch(
      new Request("http://127.0.0.1/api/admin/login", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(wrong),
      }),
      { remoteAddr: { hostname: peer, port: 1, transport: "tcp" } },
    );
    await res.body?.cancel();
    return res.status;
  };
  // From a proxy on this host, each forwarded client is a subject of its own.
  for (let i = 0; i < 8; i++) {
    assert.equal(await login("127.0.0.1", { "x-forwarded-for": `198.51.100.${i}` }), 401);
  }
  assert.deepEqual(logs, []);
  // A proxy on the LAN is not trusted by default: its clients are all the proxy's address.
  const lan: number[] = [];
  for (let i = 0; i < 7; i++) {
    lan.push(await login("10.0.0.3", { "x-forwarded-for": `198.51.100.${i}` }));
  }
  assert.deepEqual(lan, [401, 401, 401, 401, 401, 429, 429]);
  assert.equal(logs.length, 1, logs.join("\n"));
  assert.match(
    logs[0],
    /Proxied requests arrive from 10\.0\.0\.3, which TRUST_PROXY does not trust/,
  );
  await login("10.0.0.4", { forwarded: "for=198.51.100.1" });
  assert.equal(logs.length, 1, "warned once per process");
});

Deno.test("a Forwarded header from an untrusted peer is warned about too", async () => {
  await using t = await createTestApp({ TRUST_PROXY: "none" });
  const logs: string[] = [];
  const app = createApp({ services: t.services, log: (msg) => logs.push(msg) });
  const res = await app.fetch(
    new Request("http://127.0.0.1/api/version", { headers: { forwarded: "for=198.51.100.1" } }),
    { remoteAddr: { hostname: "127.0.0.1", port: 1, transport: "tcp" } },
  );
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.equal(logs.length, 1);
  assert.match(logs[0], /Proxied requests arrive from 127\.0\.0\.1/);
});
