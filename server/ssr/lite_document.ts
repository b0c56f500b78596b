/**
 * The document and the NodeIterator of lite_dom.ts: what DOMPurify calls on a document (create
 * nodes, find <body>, walk the tree while it removes nodes), as jsdom implements it.
 */
import {
  asciiLower,
  DOCUMENT_NODE,
  DomError,
  HTML_NS,
  LiteCharacterData,
  LiteElement,
  LiteFragment,
  LiteNode,
  TEXT_NODE,
} from "./lite_dom.ts";

/** The node types NodeFilter's whatToShow bits select (1 << (nodeType - 1)). */
const shown = (whatToShow: number, node: LiteNode) => (whatToShow & (1 << (node._type - 1))) !== 0;

/** A NodeIterator without a filter callback (DOMPurify passes none), as jsdom implements it. */
export class LiteNodeIterator {
  _ref: LiteNode;
  _before = true;
  constructor(readonly root: LiteNode, readonly whatToShow: number) {
    this._ref = root;
  }
  nextNode(): LiteNode | null {
    let node = this._ref;
    let before = this._before;
    while (true) {
      if (!before) {
        const following = node._nextInTree(this.root);
        if (!following) return null;
        node = following;
      }
      before = false;
      if (shown(this.whatToShow, node)) {
        this._ref = node;
        this._before = false;
        return node;
      }
    }
  }
  /** https://dom.spec.whatwg.org/#concept-nodeiterator-pre-remove */
  _preRemove(removed: LiteNode): void {
    if (!removed.contains(this._ref) || removed.contains(this.root)) return;
    if (this._before) {
      const next = removed._nextAfterSubtree(this.root);
      if (next !== null) {
        this._ref = next;
        return;
      }
    }
    this._ref = removed._prev === null
      ? removed._parent!
      : removed._prev._lastInclusiveDescendant();
    this._before = false;
  }
}

/** An HTML document. */
export class LiteDocument extends LiteNode {
  readonly _iterators: LiteNodeIterator[] = [];
  mode = "no-quirks";
  readonly implementation = {
    createHTMLDocument: (): LiteDocument => {
      throw new DomError("NotSupportedError", "Not used: DOMPurify parses with DOMParser");
    },
  };
  constructor() {
    super(null, DOCUMENT_NODE);
    this._doc = this;
  }
  get documentElement(): LiteElement | null {
    return this.firstElementChild;
  }
  get body(): LiteElement | null {
    const html = this.documentElement;
    if (!html || html.localName !== "html" || html._ns !== HTML_NS) return null;
    for (let n = html._first; n; n = n._next) {
      if (n instanceof LiteElement && (n.localName === "body" || n.localName === "frameset")) {
        if (n._ns === HTML_NS) return n;
      }
    }
    return null;
  }
  createElement(name: string): LiteElement {
    return new LiteElement(this, asciiLower(name), HTML_NS);
  }
  createTextNode(data: string): LiteCharacterData {
    return new LiteCharacterData(this, TEXT_NODE, `${data}`);
  }
  createDocumentFragment(): LiteFragment {
    return new LiteFragment(this);
  }
  createNodeIterator(root: LiteNode, whatToShow = 0xffffffff): LiteNodeIterator {
    const it = new LiteNodeIterator(root, whatToShow >>> 0);
    this._iterators.push(it);
    return it;
  }
  /** The elements with this qualified name (lowercased for HTML elements), in tree order. */
  getElementsByTagName(name: string): LiteElement[] {
    const found: LiteElement[] = [];
    const lower = asciiLower(name);
    for (let n = this._nextInTree(this); n; n = n._nextInTree(this)) {
      if (!(n instanceof LiteElement)) continue;
      const qualified = n.prefix === null ? n.localName : `${n.prefix}:${n.localName}`;
      if (name === "*" || qualified === (n._ns === HTML_NS ? lower : name)) found.push(n);
    }
    return found;
  }
}
