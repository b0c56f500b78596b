/**
 * The part of the DOM that DOMPurify uses, over trees that parse5 builds (lite_window.ts), so the
 * server sanitises with DOMPurify itself without loading jsdom (about 70 MB resident).
 *
 * Every behaviour here copies jsdom's, which copies the DOM standard: node types and names, the
 * attribute list (live, in order, looked up by lowercased name on HTML elements), the checks
 * that make setAttribute throw, insertion and removal, which tells the document's NodeIterators
 * (lite_document.ts) before a node goes (DOMPurify removes nodes while it walks).
 * server/ssr/lite_dom_test.ts sanitises a large
 * corpus with DOMPurify on jsdom and on this DOM and requires identical output.
 */

/**
 * What a node needs of its document, which lite_document.ts implements: the live iterators to
 * warn before a node goes. Declared here so that this module does not import its document's.
 */
export interface OwnerDocument extends LiteNode {
  readonly _iterators: Iterable<{ _preRemove(node: LiteNode): void }>;
}

export const HTML_NS = "http://www.w3.org/1999/xhtml";
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const COMMENT_NODE = 8;
export const DOCUMENT_NODE = 9;
export const DOCUMENT_TYPE_NODE = 10;
export const DOCUMENT_FRAGMENT_NODE = 11;

/** The exception a DOM method throws, named like the DOMException jsdom would throw. */
export class DomError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** ASCII lowercase, as the DOM lowercases names (other letters stay). */
export const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());
const asciiUpper = (s: string) => s.replace(/[a-z]+/g, (c) => c.toUpperCase());
const INVALID_ATTR_LOCAL_NAME = /[\0\t\n\f\r /=>]/u;
const INVALID_PREFIX = /[\0\t\n\f\r />]/u;
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

/** A node: tree links, and the tree operations DOMPurify calls. */
export class LiteNode {
  _parent: LiteNode | null = null;
  _first: LiteNode | null = null;
  _last: LiteNode | null = null;
  _prev: LiteNode | null = null;
  _next: LiteNode | null = null;
  /** childNodes as an array, rebuilt after the children change (same array until then). */
  _kids: LiteNode[] | null = null;

  constructor(public _doc: OwnerDocument | null, readonly _type: number) {}

  get nodeType(): number {
    return this._type;
  }
  /** One getter for every type: DOMPurify calls Node.prototype's getter on any node. */
  get nodeName(): string {
    switch (this._type) {
      case ELEMENT_NODE:
        return (this as unknown as LiteElement).tagName;
      case TEXT_NODE:
        return "#text";
      case COMMENT_NODE:
        return "#comment";
      case DOCUMENT_NODE:
        return "#document";
      case DOCUMENT_TYPE_NODE:
        return (this as unknown as LiteDocumentType).name;
      default:
        return "#document-fragment";
    }
  }
  get ownerDocument(): OwnerDocument | null {
    return this._type === DOCUMENT_NODE ? null : this._doc;
  }
  get parentNode(): LiteNode | null {
    return this._parent;
  }
  get firstChild(): LiteNode | null {
    return this._first;
  }
  get lastChild(): LiteNode | null {
    return this._last;
  }
  get previousSibling(): LiteNode | null {
    return this._prev;
  }
  get nextSibling(): LiteNode | null {
    return this._next;
  }
  get childNodes(): LiteNode[] {
    if (!this._kids) {
      this._kids = [];
      for (let n = this._first; n; n = n._next) this._kids.push(n);
    }
    return this._kids;
  }
  get firstElementChild(): LiteElement | null {
    for (let n = this._first; n; n = n._next) if (n instanceof LiteElement) return n;
    return null;
  }
  hasChildNodes(): boolean {
    return this._first !== null;
  }
  /** The text of every Text descendant, in tree order (null on a document, like the DOM). */
  get textContent(): string | null {
    if (this._type === DOCUMENT_NODE || this._type === DOCUMENT_TYPE_NODE) return null;
    if (this instanceof LiteCharacterData) return this.data;
    let text = "";
    for (let n = this._nextInTree(this); n; n = n._nextInTree(this)) {
      if (n instanceof LiteCharacterData && n._type === TEXT_NODE) text += n.data;
    }
    return text;
  }

  /** Inserts `node` before `child` (null: at the end); moves it if it has a parent already. */
  insertBefore<T extends LiteNode>(node: T, child: LiteNode | null): T {
    if (child !== null && child._parent !== this) {
      throw new DomError("NotFoundError", "The reference node is not a child of this node");
    }
    if (node.contains(this)) {
      throw new DomError("HierarchyRequestError", "The new child contains the parent");
    }
    if (node._type === DOCUMENT_NODE) {
      throw new DomError("HierarchyRequestError", "A document cannot be inserted");
    }
    if (node._type === DOCUMENT_FRAGMENT_NODE) {
      const moved: LiteNode[] = [...node.childNodes];
      for (const n of moved) node._removeChild(n);
      for (const n of moved) this._link(n, child);
      return node;
    }
    if (child === node) child = node._next;
    if (node._parent) node._parent._removeChild(node);
    this._link(node, child);
    return node;
  }
  appendChild<T extends LiteNode>(node: T): T {
    return this.insertBefore(node, null);
  }
  removeChild<T extends LiteNode>(child: T): T {
    if (child._parent !== this) {
      throw new DomError("NotFoundError", "The node to be removed is not a child of this node");
    }
    this._removeChild(child);
    return child;
  }
  remove(): void {
    if (this._parent) this._parent._removeChild(this);
  }
  contains(other: LiteNode | null): boolean {
    for (let n = other; n; n = n._parent) if (n === this) return true;
    return false;
  }
  cloneNode(deep = false): LiteNode {
    const copy = this._shallowClone();
    if (deep) { for (let n = this._first; n; n = n._next) copy._link(n.cloneNode(true), null); }
    return copy;
  }
  _shallowClone(): LiteNode {
    throw new DomError("NotSupportedError", "This node cannot be cloned");
  }

  /** The node after this one in tree order, inside `root` (null at the end). */
  _nextInTree(root: LiteNode): LiteNode | null {
    return this._first ?? this._nextAfterSubtree(root);
  }
  /** The first node after this one's subtree in tree order, inside `root`. */
  _nextAfterSubtree(root: LiteNode): LiteNode | null {
    return nextAfterSubtree(this, root);
  }
  _lastInclusiveDescendant(): LiteNode {
    return lastInclusiveDescendant(this);
  }
  _link(node: LiteNode, before: LiteNode | null): void {
    if (this._doc && node._doc !== this._doc) node._adopt(this._doc);
    node._parent = this;
    node._next = before;
    node._prev = before ? before._prev : this._last;
    if (node._prev) node._prev._next = node;
    else this._first = node;
    if (before) before._prev = node;
    else this._last = node;
    this._kids = null;
  }
  _removeChild(node: LiteNode): void {
    for (const it of node._doc?._iterators ?? []) it._preRemove(node);
    if (node._prev) node._prev._next = node._next;
    else this._first = node._next;
    if (node._next) node._next._prev = node._prev;
    else this._last = node._prev;
    node._parent = node._prev = node._next = null;
    this._kids = null;
  }
  _adopt(doc: OwnerDocument): void {
    adopt(this, doc);
  }
}

function adopt(root: LiteNode, doc: OwnerDocument): void {
  for (let n: LiteNode | null = root; n; n = n._nextInTree(root)) {
    n._doc = doc;
    if (n instanceof LiteElement && n._content) adopt(n._content, doc);
  }
}

// Loops, not recursion: a tree may be tens of thousands of levels deep.
function nextAfterSubtree(node: LiteNode, root: LiteNode): LiteNode | null {
  for (let n: LiteNode | null = node; n && n !== root; n = n._parent) if (n._next) return n._next;
  return null;
}

function lastInclusiveDescendant(node: LiteNode): LiteNode {
  let n = node;
  while (n._last) n = n._last;
  return n;
}

/** A Text or Comment node. */
export class LiteCharacterData extends LiteNode {
  constructor(
    doc: OwnerDocument | null,
    type: typeof TEXT_NODE | typeof COMMENT_NODE,
    public data: string,
  ) {
    super(doc, type);
  }
  override _shallowClone(): LiteNode {
    return new LiteCharacterData(this._doc, this._type as 3 | 8, this.data);
  }
}

/** An attribute: its qualified name is `prefix:localName`, or `localName` without a prefix. */
export class LiteAttr {
  constructor(
    readonly localName: string,
    public value: string,
    readonly prefix: string | null = null,
    readonly namespaceURI: string | null = null,
  ) {}
  get name(): string {
    return this.prefix === null ? this.localName : `${this.prefix}:${this.localName}`;
  }
}

/** An element of an HTML document (the only kind of document here). */
export class LiteElement extends LiteNode {
  /** The attribute list: DOMPurify reads it live while it removes and sets attributes. */
  readonly _attrs: LiteAttr[] = [];
  /** A template's contents. */
  _content: LiteFragment | null = null;
  /** The `is` value the element was created with (serialised when no `is` attribute is left). */
  _isValue: string | null = null;

  constructor(
    doc: OwnerDocument | null,
    readonly localName: string,
    readonly _ns: string | null,
    readonly prefix: string | null = null,
  ) {
    super(doc, ELEMENT_NODE);
    if (localName === "template" && _ns === HTML_NS) this._content = new LiteFragment(doc);
  }
  get namespaceURI(): string | null {
    return this._ns;
  }
  get tagName(): string {
    const qualified = this.prefix === null ? this.localName : `${this.prefix}:${this.localName}`;
    return this._ns === HTML_NS ? asciiUpper(qualified) : qualified;
  }
  get attributes(): LiteAttr[] {
    return this._attrs;
  }
  get content(): LiteFragment | undefined {
    return this._content ?? undefined;
  }
  get innerHTML(): string {
    return serializer.inner(this);
  }
  get outerHTML(): string {
    return serializer.outer(this);
  }
  getAttributeNode(name: string): LiteAttr | null {
    if (this._ns === HTML_NS) name = asciiLower(name);
    return this._attrs.find((a) => a.name === name) ?? null;
  }
  getAttribute(name: string): string | null {
    return this.getAttributeNode(name)?.value ?? null;
  }
  hasAttribute(name: string): boolean {
    return this.getAttributeNode(name) !== null;
  }
  removeAttribute(name: string): void {
    const attr = this.getAttributeNode(name);
    if (attr) this._attrs.splice(this._attrs.indexOf(attr), 1);
  }
  removeAttributeNode(attr: LiteAttr): LiteAttr {
    const i = this._attrs.indexOf(attr);
    if (i === -1) throw new DomError("NotFoundError", "The attribute is not on this element");
    this._attrs.splice(i, 1);
    return attr;
  }
  setAttribute(name: string, value: string): void {
    if (name.length === 0 || INVALID_ATTR_LOCAL_NAME.test(name)) {
      throw new DomError("InvalidCharacterError", `"${name}" is not a valid attribute local name`);
    }
    if (this._ns === HTML_NS) name = asciiLower(name);
    const attr = this._attrs.find((a) => a.name === name);
    if (attr) attr.value = `${value}`;
    else this._attrs.push(new LiteAttr(name, `${value}`));
  }
  setAttributeNS(namespace: string | null, qualifiedName: string, value: string): void {
    const { ns, prefix, localName } = validateAndExtract(namespace, qualifiedName);
    this._setAttributeValue(localName, `${value}`, prefix, ns);
  }
  /** Sets the attribute with this namespace and local name, or appends it (the parser's path). */
  _setAttributeValue(localName: string, value: string, prefix: string | null, ns: string | null) {
    const attr = this._attrs.find((a) => a.namespaceURI === ns && a.localName === localName);
    if (attr) attr.value = value;
    else this._attrs.push(new LiteAttr(localName, value, prefix, ns));
  }
  override _shallowClone(): LiteNode {
    const copy = new LiteElement(this._doc, this.localName, this._ns, this.prefix);
    copy._isValue = this._isValue;
    for (const a of this._attrs) {
      copy._attrs.push(new LiteAttr(a.localName, a.value, a.prefix, a.namespaceURI));
    }
    if (this._content && copy._content) {
      for (let n = this._content._first; n; n = n._next) {
        copy._content._link(n.cloneNode(true), null);
      }
    }
    return copy;
  }
}

/** https://dom.spec.whatwg.org/#validate-and-extract, for attributes, as jsdom implements it. */
function validateAndExtract(namespace: string | null, qualifiedName: string) {
  const ns = namespace === "" ? null : namespace;
  let prefix: string | null = null;
  let localName = qualifiedName;
  const colon = qualifiedName.indexOf(":");
  if (colon !== -1) {
    prefix = qualifiedName.slice(0, colon);
    localName = qualifiedName.slice(colon + 1);
    if (prefix.length === 0 || INVALID_PREFIX.test(prefix)) {
      throw new DomError("InvalidCharacterError", `"${prefix}" is not a valid namespace prefix`);
    }
  }
  if (localName.length === 0 || INVALID_ATTR_LOCAL_NAME.test(localName)) {
    throw new DomError("InvalidCharacterError", `"${localName}" is not a valid attribute name`);
  }
  if (
    (prefix !== null && ns === null) ||
    (prefix === "xml" && ns !== XML_NS) ||
    ((qualifiedName === "xmlns" || prefix === "xmlns") && ns !== XMLNS_NS) ||
    (ns === XMLNS_NS && qualifiedName !== "xmlns" && prefix !== "xmlns")
  ) {
    throw new DomError("NamespaceError", `"${qualifiedName}" does not fit namespace ${ns}`);
  }
  return { ns, prefix, localName };
}

/** A document fragment (a template's contents). */
export class LiteFragment extends LiteNode {
  constructor(doc: OwnerDocument | null) {
    super(doc, DOCUMENT_FRAGMENT_NODE);
  }
  override _shallowClone(): LiteNode {
    return new LiteFragment(this._doc);
  }
}

/** A doctype node, kept so the document's children are those jsdom's parse gives. */
export class LiteDocumentType extends LiteNode {
  constructor(doc: OwnerDocument, readonly name: string) {
    super(doc, DOCUMENT_TYPE_NODE);
  }
  override _shallowClone(): LiteNode {
    return new LiteDocumentType(this._doc!, this.name);
  }
}

/** How lite_window.ts serialises (parse5's serialiser with this DOM's tree adapter). */
export const serializer = {
  inner: (_node: LiteNode): string => "",
  outer: (_node: LiteNode): string => "",
};
