/**
 * A small, strict, namespace-aware XML parser and serialiser for WebDAV request bodies
 * (PROPFIND, PROPPATCH, LOCK) and for the dead property values kept in KV.
 *
 * Why by hand: no XML package is mapped in deno.json, and WebDAV needs only elements, attributes,
 * text, CDATA and namespaces. It is strict where litmus and RFC 4918 are: a body that is not
 * well-formed, an undeclared prefix or `xmlns:p=""` is an error (400). DOCTYPEs are refused, so
 * no entity expansion can happen. Serialised elements are self-contained: each one declares the
 * namespaces it uses, so a stored value can be dropped into any response.
 */

/** An element with its namespace URI ("" for none) and local name. */
export type XmlElement = { ns: string; name: string; attrs: XmlAttr[]; children: XmlNode[] };
export type XmlAttr = { ns: string; name: string; value: string };
export type XmlNode = XmlElement | string;

/** Thrown for a body that is not well-formed or not namespace-well-formed. */
export class XmlError extends Error {}

export const DAV_NS = "DAV:";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
const MAX_DEPTH = 64;
const NAME =
  /[A-Za-z_\u00C0-\uFFFD][\w.\-\u00B7\u00C0-\uFFFD]*(?::[A-Za-z_\u00C0-\uFFFD][\w.\-\u00B7\u00C0-\uFFFD]*)?/y;
const SPACE = /[ \t\r\n]*/y;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

type RawElement = { qname: string; attrs: [string, string][]; children: (RawElement | string)[] };

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  fail(what: string): never {
    throw new XmlError(`${what} at offset ${this.i}`);
  }
  startsWith(t: string) {
    return this.s.startsWith(t, this.i);
  }
  expect(t: string) {
    if (!this.startsWith(t)) this.fail(`expected "${t}"`);
    this.i += t.length;
  }
  space(): boolean {
    SPACE.lastIndex = this.i;
    SPACE.exec(this.s);
    const moved = SPACE.lastIndex > this.i;
    this.i = SPACE.lastIndex;
    return moved;
  }
  name(): string {
    NAME.lastIndex = this.i;
    const m = NAME.exec(this.s);
    if (!m) this.fail("expected a name");
    this.i = NAME.lastIndex;
    return m[0];
  }
  until(t: string): string {
    const end = this.s.indexOf(t, this.i);
    if (end < 0) this.fail(`missing "${t}"`);
    const out = this.s.slice(this.i, end);
    this.i = end + t.length;
    return out;
  }
}

/** Replaces entity and character references; throws on unknown or invalid ones. */
function decodeText(r: Reader, raw: string): string {
  if (raw.includes("<")) r.fail('"<" in text or attribute');
  return raw.replace(/&([^;&]*);?/g, (m, ref: string) => {
    if (!m.endsWith(";")) r.fail("unterminated reference");
    if (ref in ENTITIES) return ENTITIES[ref];
    const hex = /^#x([0-9a-fA-F]{1,6})$/.exec(ref);
    const dec = /^#([0-9]{1,7})$/.exec(ref);
    const cp = hex ? parseInt(hex[1], 16) : dec ? Number(dec[1]) : NaN;
    const valid = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
      (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
    if (!valid) r.fail(`invalid reference "&${ref};"`);
    return String.fromCodePoint(cp);
  });
}

/** Skips comments, processing instructions and white space; refuses DOCTYPE. */
function misc(r: Reader) {
  for (;;) {
    r.space();
    if (r.startsWith("<!--")) {
      r.i += 4;
      if (r.until("-->").includes("--")) r.fail('"--" in a comment');
    } else if (r.startsWith("<?")) {
      r.i += 2;
      if (r.name().toLowerCase() === "xml") r.fail("misplaced XML declaration");
      r.until("?>");
    } else if (r.startsWith("<!DOCTYPE")) {
      r.fail("DOCTYPE is not allowed");
    } else return;
  }
}

function element(r: Reader, depth: number): RawElement {
  if (depth > MAX_DEPTH) r.fail("elements nested too deeply");
  r.expect("<");
  const qname = r.name();
  const attrs: [string, string][] = [];
  for (;;) {
    const spaced = r.space();
    if (r.startsWith("/>")) {
      r.i += 2;
      return { qname, attrs, children: [] };
    }
    if (r.startsWith(">")) {
      r.i++;
      break;
    }
    if (!spaced) r.fail("expected white space before an attribute");
    const name = r.name();
    r.space();
    r.expect("=");
    r.space();
    const quote = r.s[r.i];
    if (quote !== '"' && quote !== "'") r.fail("expected a quoted attribute value");
    r.i++;
    const value = decodeText(r, r.until(quote)).replace(/[\t\r\n]/g, " ");
    if (attrs.some(([n]) => n === name)) r.fail(`duplicate attribute "${name}"`);
    attrs.push([name, value]);
  }
  const children: (RawElement | string)[] = [];
  for (;;) {
    const lt = r.s.indexOf("<", r.i);
    if (lt < 0) r.fail(`unclosed element <${qname}>`);
    if (lt > r.i) children.push(decodeText(r, r.s.slice(r.i, lt)));
    r.i = lt;
    if (r.startsWith("</")) {
      r.i += 2;
      if (r.name() !== qname) r.fail(`mismatched end tag for <${qname}>`);
      r.space();
      r.expect(">");
      return { qname, attrs, children };
    }
    if (r.startsWith("<![CDATA[")) {
      r.i += 9;
      children.push(r.until("]]>"));
    } else if (r.startsWith("<!--")) {
      r.i += 4;
      r.until("-->");
    } else if (r.startsWith("<?")) {
      r.i += 2;
      r.until("?>");
    } else children.push(element(r, depth + 1));
  }
}

/** Resolves prefixes to namespace URIs, scope by scope. */
function resolve(raw: RawElement, scope: Map<string, string>): XmlElement {
  let local = scope;
  for (const [name, value] of raw.attrs) {
    if (name !== "xmlns" && !name.startsWith("xmlns:")) continue;
    const prefix = name === "xmlns" ? "" : name.slice(6);
    if (prefix && value === "") throw new XmlError(`empty namespace for prefix "${prefix}"`);
    if (prefix === "xmlns" || (prefix === "xml") !== (value === XML_NS)) {
      throw new XmlError(`misuse of the reserved prefix or namespace of "${name}"`);
    }
    if (value === XMLNS_NS) throw new XmlError("the xmlns namespace cannot be declared");
    if (local === scope) local = new Map(scope);
    local.set(prefix, value);
  }
  const split = (qname: string, isAttr: boolean) => {
    const colon = qname.indexOf(":");
    if (colon < 0) return { ns: isAttr ? "" : local.get("") ?? "", name: qname };
    const prefix = qname.slice(0, colon);
    const ns = local.get(prefix);
    if (ns === undefined) throw new XmlError(`undeclared prefix "${prefix}"`);
    return { ns, name: qname.slice(colon + 1) };
  };
  const attrs: XmlAttr[] = [];
  for (const [name, value] of raw.attrs) {
    if (name === "xmlns" || name.startsWith("xmlns:")) continue;
    const a = split(name, true);
    if (attrs.some((b) => b.ns === a.ns && b.name === a.name)) {
      throw new XmlError(`duplicate attribute "${name}"`);
    }
    attrs.push({ ...a, value });
  }
  return {
    ...split(raw.qname, false),
    attrs,
    children: raw.children.map((c) => typeof c === "string" ? c : resolve(c, local)),
  };
}

/** Parses a whole document and returns its root element; throws XmlError when malformed. */
export function parseXml(text: string): XmlElement {
  const r = new Reader(text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n"));
  if (r.startsWith("<?xml")) {
    r.i += 5;
    const decl = r.until("?>");
    if (!/^\s+version\s*=\s*["']1\.\d+["']/.test(decl)) r.fail("invalid XML declaration");
  }
  misc(r);
  if (!r.startsWith("<")) r.fail("expected the root element");
  const root = element(r, 0);
  misc(r);
  if (r.i < r.s.length) r.fail("content after the root element");
  return resolve(root, new Map([["xml", XML_NS]]));
}

/** The child elements of an element, text left out. */
export function childElements(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== "string");
}

/** The first child element with this namespace and name, or undefined. */
export function findChild(el: XmlElement, ns: string, name: string): XmlElement | undefined {
  return childElements(el).find((c) => c.ns === ns && c.name === name);
}

/** All the text inside an element, trimmed. */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => typeof c === "string" ? c : textOf(c)).join("").trim();
}

/** Escapes text content. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/\r/g, "&#13;");
}

function escapeAttr(s: string): string {
  return escapeXml(s).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
}

/**
 * Serialises an element so that it stands alone: the root declares its default namespace
 * (`xmlns=""` for none), children only when it changes, attributes get their own prefixes.
 */
export function serializeElement(el: XmlElement, parentNs?: string): string {
  let out = `<${el.name}`;
  if (el.ns !== parentNs) out += ` xmlns="${escapeAttr(el.ns)}"`;
  el.attrs.forEach((a, n) => {
    if (a.ns === "") out += ` ${a.name}="${escapeAttr(a.value)}"`;
    else if (a.ns === XML_NS) out += ` xml:${a.name}="${escapeAttr(a.value)}"`;
    else out += ` xmlns:a${n}="${escapeAttr(a.ns)}" a${n}:${a.name}="${escapeAttr(a.value)}"`;
  });
  if (el.children.length === 0) return out + "/>";
  return out + ">" + serializeNodes(el.children, el.ns) + `</${el.name}>`;
}

/** Serialises a list of nodes (an element's content) in a context whose default is `ns`. */
export function serializeNodes(nodes: XmlNode[], ns?: string): string {
  return nodes.map((c) => typeof c === "string" ? escapeXml(c) : serializeElement(c, ns)).join("");
}

/** An empty element named `{ns}name`, self-contained (for 404 propstats and propname). */
export function emptyElement(ns: string, name: string): string {
  return `<${name} xmlns="${escapeAttr(ns)}"/>`;
}
