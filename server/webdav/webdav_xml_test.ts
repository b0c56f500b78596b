import assert from "node:assert/strict";
import { parseXml, serializeElement, XmlError } from "./webdav_xml.ts";
import { evaluateIf, parseIfHeader, submittedTokens } from "./webdav_if.ts";
import { parseDavPath } from "./webdav_paths.ts";
import { partsOf } from "./webdav_put.ts";

Deno.test("webdav xml: namespaces, references, CDATA; refuses what is not well-formed", () => {
  const el = parseXml(
    `<?xml version="1.0" encoding="utf-8"?>\n<!-- c --><D:prop xmlns:D="DAV:" xmlns="urn:d">` +
      `<a x="1 &amp; 2">t&lt;&#65536;<![CDATA[<raw>]]></a><n xmlns=""/></D:prop>`,
  );
  assert.deepEqual([el.ns, el.name], ["DAV:", "prop"]);
  const [a, n] = el.children as [typeof el, typeof el];
  assert.deepEqual([a.ns, a.attrs[0].value, a.children.join("")], [
    "urn:d",
    "1 & 2",
    "t<\u{10000}<raw>",
  ]);
  assert.equal(n.ns, "");
  assert.equal(
    serializeElement(el),
    `<prop xmlns="DAV:"><a xmlns="urn:d" x="1 &amp; 2">t&lt;\u{10000}&lt;raw&gt;</a><n xmlns=""/></prop>`,
  );
  for (
    const bad of [
      "<foo>",
      "<a></b>",
      `<a xmlns:p=""><p:b/></a>`,
      "<p:a/>",
      "<a>&bogus;</a>",
      "<a>&#0;</a>",
      `<!DOCTYPE a [<!ENTITY x "y">]><a/>`,
      "<a/><b/>",
      `<a x="1" x="2"/>`,
    ]
  ) {
    assert.throws(() => parseXml(bad), XmlError, bad);
  }
});

Deno.test("webdav If header: tagged and untagged lists, Not, ETags", async () => {
  const lists = parseIfHeader(`<http://h/dav/a> (<opaquelocktoken:1> ["e1"]) (Not <DAV:no-lock>)`);
  assert.equal(lists.length, 2);
  assert.deepEqual([...submittedTokens(lists)], ["opaquelocktoken:1"]);
  const state = { etag: '"e1"', tokens: new Set(["opaquelocktoken:1"]) };
  assert.equal(await evaluateIf(lists, () => Promise.resolve(state)), true);
  const wrong = parseIfHeader(`(<opaquelocktoken:1> ["e2"]) (Not <DAV:no-lock> ["e2"])`);
  assert.equal(await evaluateIf(wrong, () => Promise.resolve(state)), false);
  for (const bad of ["", "<x>", "(", "()", "(<a> x)", "(<a>) <t> (<b>)"]) {
    assert.throws(() => parseIfHeader(bad), bad);
  }
});

Deno.test("webdav paths: percent-decoding and refusals", () => {
  assert.deepEqual(parseDavPath("/dav/a/%E4%BD%A0%20b/"), { path: "/a/你 b", slash: true });
  assert.deepEqual(parseDavPath("/dav"), { path: "/", slash: true });
  for (
    const bad of ["/dav/%2e%2e/x", "/dav/a%2Fb", "/dav/a%5Cb", "/dav/a%00", "/dav/%ff", "/davx"]
  ) {
    assert.throws(() => parseDavPath(bad), bad);
  }
});

Deno.test("webdav PUT parts: exact part sizes cut from any chunking", async () => {
  const chunks = [3, 7, 1, 9, 4].map((n, i) => new Uint8Array(n).fill(i));
  const stream = ReadableStream.from(chunks);
  const parts = [];
  for await (const p of partsOf(stream, 8)) parts.push(p.length);
  assert.deepEqual(parts, [8, 8, 8]);
});
