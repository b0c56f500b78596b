/**
 * A window for DOMPurify made of lite_dom.ts: parse5 parses and serialises (the same parser and
 * serialiser, with the same options, that jsdom uses for DOMParser and innerHTML), and
 * `value in document` answers from jsdom's own property names (lite_dom_names.ts), which DOMPurify
 * asks to drop `id` and `name` values that would clobber a document or form property.
 */
import {
  type DefaultTreeAdapterMap,
  parse,
  serialize,
  serializeOuter,
  type TreeAdapter,
} from "parse5";
import {
  COMMENT_NODE,
  DOCUMENT_FRAGMENT_NODE,
  DOCUMENT_TYPE_NODE,
  ELEMENT_NODE,
  LiteAttr,
  LiteCharacterData,
  LiteDocumentType,
  LiteElement,
  LiteFragment,
  LiteNode,
  serializer,
  TEXT_NODE,
} from "./lite_dom.ts";
import { LiteDocument } from "./lite_document.ts";
import { JSDOM_DOCUMENT_AND_FORM_NAMES } from "./lite_dom_names.ts";

type Attribute = { name: string; value: string; namespace?: string; prefix?: string };
type LiteMap = {
  [K in keyof DefaultTreeAdapterMap]: K extends "document" ? LiteDocument
    : K extends "element" | "template" ? LiteElement
    : K extends "textNode" | "commentNode" ? LiteCharacterData
    : K extends "documentFragment" ? LiteFragment
    : K extends "documentType" ? LiteDocumentType
    : LiteNode;
};

/** jsdom's serialisation adapter: an element created with `is` gets it back if it lost it. */
function attrList(el: LiteElement): LiteAttr[] {
  if (el._isValue !== null && el._attrs.every((a) => a.name !== "is")) {
    return [new LiteAttr("is", el._isValue), ...el._attrs];
  }
  return el._attrs;
}

/** Builds lite_dom nodes as jsdom's parse5 adapter builds its own (browser/parser/html.js). */
function treeAdapter(doc: LiteDocument): TreeAdapter<LiteMap> {
  const adapter: TreeAdapter<LiteMap> = {
    createDocument: () => doc,
    createDocumentFragment: () => new LiteFragment(doc),
    createElement(localName: string, namespace: string, attrs: Attribute[]) {
      const el = new LiteElement(doc, localName, namespace);
      el._isValue = attrs.find((a) => a.name === "is")?.value ?? null;
      adapter.adoptAttributes(el, attrs);
      return el;
    },
    createCommentNode: (data: string) => new LiteCharacterData(doc, COMMENT_NODE, data),
    createTextNode: (value: string) => new LiteCharacterData(doc, TEXT_NODE, value),
    appendChild: (parent: LiteNode, node: LiteNode) => void parent._link(node, null),
    insertBefore: (parent: LiteNode, node: LiteNode, ref: LiteNode) => void parent._link(node, ref),
    setTemplateContent(template: LiteElement, content: LiteFragment) {
      template._content = content;
    },
    getTemplateContent: (template: LiteElement) => template._content!,
    setDocumentType(document: LiteDocument, name: string) {
      document._link(new LiteDocumentType(document, name), null);
    },
    setDocumentMode(document: LiteDocument, mode: string) {
      document.mode = mode;
    },
    getDocumentMode: (document: LiteDocument) => document.mode as never,
    detachNode: (node: LiteNode) => node.remove(),
    insertText(parent: LiteNode, text: string) {
      const last = parent._last;
      if (last instanceof LiteCharacterData && last._type === TEXT_NODE) last.data += text;
      else parent._link(new LiteCharacterData(doc, TEXT_NODE, text), null);
    },
    insertTextBefore(parent: LiteNode, text: string, ref: LiteNode) {
      const prev = ref._prev;
      if (prev instanceof LiteCharacterData && prev._type === TEXT_NODE) prev.data += text;
      else parent._link(new LiteCharacterData(doc, TEXT_NODE, text), ref);
    },
    adoptAttributes(el: LiteElement, attrs: Attribute[]) {
      for (const a of attrs) {
        el._setAttributeValue(a.name, a.value, a.prefix || null, a.namespace ?? null);
      }
    },
    getFirstChild: (node: LiteNode) => node._first,
    getChildNodes: (node: LiteNode) => node.childNodes,
    getParentNode: (node: LiteNode) => node._parent,
    getAttrList: (el: LiteElement) => attrList(el) as unknown as Attribute[],
    getTagName: (el: LiteElement) =>
      el.prefix === null ? el.localName : `${el.prefix}:${el.localName}`,
    getNamespaceURI: (el: LiteElement) => el._ns as never,
    getTextNodeContent: (node: LiteCharacterData) => node.data,
    getCommentNodeContent: (node: LiteCharacterData) => node.data,
    getDocumentTypeNodeName: (node: LiteDocumentType) => node.name,
    getDocumentTypeNodePublicId: () => "",
    getDocumentTypeNodeSystemId: () => "",
    isTextNode: (node: LiteNode): node is LiteCharacterData => node._type === TEXT_NODE,
    isCommentNode: (node: LiteNode): node is LiteCharacterData => node._type === COMMENT_NODE,
    isDocumentTypeNode: (node: LiteNode): node is LiteDocumentType =>
      node._type === DOCUMENT_TYPE_NODE,
    isElementNode: (node: LiteNode): node is LiteElement => node._type === ELEMENT_NODE,
    setNodeSourceCodeLocation: () => {},
    getNodeSourceCodeLocation: () => undefined,
    updateNodeSourceCodeLocation: () => {},
  };
  return adapter;
}

// A document made by DOMParser has scripting disabled: <noscript> holds markup, and its text is
// escaped when serialised. jsdom passes the same option to parse5 both ways.
const serializeOptions = { treeAdapter: treeAdapter(new LiteDocument()), scriptingEnabled: false };
serializer.inner = (node) => serialize(node, serializeOptions);
serializer.outer = (node) => serializeOuter(node, serializeOptions);

/** Parses `html` into a new document, as jsdom's DOMParser does for text/html. */
export function parseHtmlDocument(html: string): LiteDocument {
  const doc = new LiteDocument();
  return parse(html, { treeAdapter: treeAdapter(doc), scriptingEnabled: false });
}

/** Answers `in` as a jsdom document or form element would; everything else reads `target`. */
function withJsdomNames<T extends object>(target: T): T {
  return new Proxy(target, { has: (_, key) => JSDOM_DOCUMENT_AND_FORM_NAMES.has(key as string) });
}

/** A window with what DOMPurify reads from one (see createDOMPurify in its source). */
export function createLiteWindow() {
  const base = new LiteDocument();
  const document = withJsdomNames({
    nodeType: base.nodeType,
    currentScript: null,
    implementation: base.implementation,
    createNodeIterator: base.createNodeIterator,
    createDocumentFragment: base.createDocumentFragment,
    getElementsByTagName: base.getElementsByTagName,
    importNode: () => {
      throw new TypeError("Not used: the server sanitises strings, not nodes");
    },
    createTextNode: (data: string) => base.createTextNode(data),
    createElement: (name: string) => withJsdomNames(base.createElement(name)),
  });
  return {
    document,
    Node: LiteNode,
    Element: LiteElement,
    DocumentFragment: LiteFragment,
    NodeFilter: {
      SHOW_ELEMENT: 1 << (ELEMENT_NODE - 1),
      SHOW_TEXT: 1 << (TEXT_NODE - 1),
      SHOW_CDATA_SECTION: 1 << 3,
      SHOW_PROCESSING_INSTRUCTION: 1 << 6,
      SHOW_COMMENT: 1 << (COMMENT_NODE - 1),
      SHOW_DOCUMENT_FRAGMENT: 1 << (DOCUMENT_FRAGMENT_NODE - 1),
    },
    DOMParser: class {
      parseFromString(html: string, type: string): LiteDocument {
        if (type !== "text/html") throw new TypeError(`Unsupported type ${type}`);
        return parseHtmlDocument(html);
      }
    },
  };
}
