/**
 * WebDAV PROPFIND and PROPPATCH (RFC 4918 §9.1-9.2). Live properties come from the storage
 * (size, type, dates, ETag) and the lock table, and are protected; any other property is a dead
 * property kept in KV per mount and storage key. PROPFIND answers Depth 0 and 1; Depth
 * infinity gets 403 with the `propfind-finite-depth` precondition. A Depth 1 listing streams
 * page by page, so a folder of any size is listed whole without being held in memory.
 */
import type { DavContext, DavRequest } from "./webdav_context.ts";
import type { FsEntry } from "../fs/fs_entry.ts";
import type { LockRecord } from "./webdav_lock_repo.ts";
import { type DeadProps, MAX_PROPS_BYTES } from "./webdav_prop_repo.ts";
import { activeLockXml, coveringLocks, SUPPORTED_LOCK_XML } from "./webdav_locks.ts";
import { davHref } from "./webdav_paths.ts";
import { davError, davText, multistatus, readBodyText, responseXml } from "./webdav_http.ts";
import {
  childElements,
  DAV_NS,
  emptyElement,
  escapeXml,
  findChild,
  parseXml,
  serializeElement,
  type XmlElement,
} from "./webdav_xml.ts";

const LIVE = new Set([
  "resourcetype",
  "displayname",
  "getcontentlength",
  "getcontenttype",
  "getlastmodified",
  "getetag",
  "supportedlock",
  "lockdiscovery",
  "creationdate",
]);

/** Entries asked of each listing page (drivers give at most what they can: S3 1000). */
const PAGE = 10_000;

type PropName = { ns: string; name: string };
type PropRequest = { kind: "allprop" } | { kind: "propname" } | {
  kind: "prop";
  names: PropName[];
};

const clark = (p: PropName) => `{${p.ns}}${p.name}`;
const isLive = (p: PropName) => p.ns === DAV_NS && LIVE.has(p.name);
const nameXml = (p: PropName) => p.ns === DAV_NS ? `<D:${p.name}/>` : emptyElement(p.ns, p.name);

function parseRoot(body: string, name: string): XmlElement | null {
  try {
    const root = parseXml(body);
    return root.ns === DAV_NS && root.name === name ? root : null;
  } catch {
    return null;
  }
}

function parsePropfind(body: string): PropRequest | null {
  if (!body.trim()) return { kind: "allprop" };
  const root = parseRoot(body, "propfind");
  if (!root) return null;
  const prop = findChild(root, DAV_NS, "prop");
  if (prop) {
    return { kind: "prop", names: childElements(prop).map((e) => ({ ns: e.ns, name: e.name })) };
  }
  if (findChild(root, DAV_NS, "propname")) return { kind: "propname" };
  if (findChild(root, DAV_NS, "allprop")) return { kind: "allprop" };
  return null;
}

/** Live properties of an entry; lock properties only inside mounts (`locks` not null). */
function liveProps(e: FsEntry, locks: string | null): Map<string, string> {
  const m = new Map<string, string>();
  const dir = e.type === "directory";
  m.set(
    "resourcetype",
    dir ? "<D:resourcetype><D:collection/></D:resourcetype>" : "<D:resourcetype/>",
  );
  m.set("displayname", `<D:displayname>${escapeXml(e.name)}</D:displayname>`);
  if (!dir) {
    m.set("getcontentlength", `<D:getcontentlength>${e.size}</D:getcontentlength>`);
    const type = e.mimetype ?? "application/octet-stream";
    m.set("getcontenttype", `<D:getcontenttype>${escapeXml(type)}</D:getcontenttype>`);
    if (e.etag) m.set("getetag", `<D:getetag>${escapeXml(e.etag)}</D:getetag>`);
  }
  if (e.modified) {
    const when = new Date(e.modified).toUTCString();
    m.set("getlastmodified", `<D:getlastmodified>${when}</D:getlastmodified>`);
  }
  if (locks !== null) {
    m.set("supportedlock", SUPPORTED_LOCK_XML);
    m.set("lockdiscovery", `<D:lockdiscovery>${locks}</D:lockdiscovery>`);
  }
  return m;
}

function propResponse(href: string, pr: PropRequest, live: Map<string, string>, dead: DeadProps) {
  const found: string[] = [];
  const missing: string[] = [];
  if (pr.kind === "allprop") found.push(...live.values(), ...Object.values(dead));
  else if (pr.kind === "propname") {
    found.push(...[...live.keys()].map((n) => `<D:${n}/>`));
    for (const k of Object.keys(dead)) {
      const close = k.indexOf("}");
      found.push(emptyElement(k.slice(1, close), k.slice(close + 1)));
    }
  } else {
    for (const p of pr.names) {
      const value = p.ns === DAV_NS && live.has(p.name) ? live.get(p.name) : dead[clark(p)];
      if (value !== undefined) found.push(value);
      else missing.push(nameXml(p));
    }
  }
  return responseXml(href, new Map([[200, found], [404, missing]]));
}

function lockXmlFor(locks: LockRecord[], key: string, mountPath: string): string {
  return coveringLocks(locks, key).map((l) => activeLockXml(l, mountPath, true)).join("");
}

/** PROPFIND with Depth 0 or 1. */
export async function handlePropfind(dav: DavContext, req: DavRequest): Promise<Response> {
  const depth = (req.headers.get("depth") ?? "infinity").trim().toLowerCase();
  if (depth === "infinity") {
    await req.body?.cancel().catch(() => {});
    return davError(403, "propfind-finite-depth", "webdav_depth_infinity");
  }
  if (depth !== "0" && depth !== "1") return davText(400, "webdav_depth_invalid", req.lang);
  const pr = parsePropfind(await readBodyText(req.body));
  if (!pr) return davText(400, "webdav_xml_invalid", req.lang);
  const t = await dav.target(req);
  if (!t.entry) return davText(404, "file_not_found", req.lang);
  const wantsDead = pr.kind !== "prop" || pr.names.some((p) => !isLive(p));
  const wantsLocks = pr.kind !== "prop" ||
    pr.names.some((p) => p.ns === DAV_NS && p.name === "lockdiscovery");
  const dir = t.entry.type === "directory";

  const mountLocks = async (mountId: string) => wantsLocks ? await dav.locks.list(mountId) : [];
  const locks = t.r ? await mountLocks(t.r.mount.id) : [];
  const selfDead = wantsDead && t.r ? (await dav.props.get(t.r.mount.id, t.r.key)).props : {};
  const selfLocks = t.r ? lockXmlFor(locks, t.r.key, t.r.mount.mount_path) : null;
  const first = propResponse(davHref(t.path, dir), pr, liveProps(t.entry, selfLocks), selfDead);
  if (depth === "0" || !dir) return multistatus([first]);

  const list = (cursor?: string) => dav.fs.list(t.path, req.auth, { cursor, limit: PAGE });
  const childDead = wantsDead && t.r
    ? await dav.props.listChildren(t.r.mount.id, t.r.key)
    : new Map<string, DeadProps>();
  const firstPage = await list();
  async function* chunks() {
    yield first;
    let page = firstPage;
    for (;;) {
      for (const e of page.items) {
        const href = davHref(e.path, e.type === "directory");
        if (page.is_virtual) {
          if (!e.mount_id) {
            yield propResponse(href, pr!, liveProps(e, null), {});
            continue;
          }
          const mount = (await dav.mounts.list(req.auth)).find((m) => m.id === e.mount_id);
          const lx = lockXmlFor(await mountLocks(e.mount_id), "", mount?.mount_path ?? e.path);
          const dead = wantsDead ? (await dav.props.get(e.mount_id, "")).props : {};
          yield propResponse(href, pr!, liveProps(e, lx), dead);
          continue;
        }
        const key = t.r!.key ? `${t.r!.key}/${e.name}` : e.name;
        const lx = lockXmlFor(locks, key, t.r!.mount.mount_path);
        yield propResponse(href, pr!, liveProps(e, lx), childDead.get(e.name) ?? {});
      }
      if (!page.cursor) return;
      page = await list(page.cursor);
    }
  }
  return multistatus(chunks());
}

type PatchOp = { set: boolean; el: XmlElement };

function parsePatch(body: string): PatchOp[] | null {
  const root = parseRoot(body, "propertyupdate");
  if (!root) return null;
  const ops: PatchOp[] = [];
  for (const action of childElements(root)) {
    if (action.ns !== DAV_NS || (action.name !== "set" && action.name !== "remove")) continue;
    const prop = findChild(action, DAV_NS, "prop");
    if (!prop) return null;
    for (const el of childElements(prop)) ops.push({ set: action.name === "set", el });
  }
  return ops.length ? ops : null;
}

/** PROPPATCH: sets and removes dead properties in document order, all or nothing. */
export async function handleProppatch(dav: DavContext, req: DavRequest): Promise<Response> {
  const ops = parsePatch(await readBodyText(req.body));
  if (!ops) return davText(400, "webdav_xml_invalid", req.lang);
  const t = await dav.target(req);
  if (!t.entry) return davText(404, "file_not_found", req.lang);
  if (!t.r) return davText(403, "webdav_virtual_folder", req.lang);
  const blocked = await dav.checkWrite(req, t, dav.lockTarget(t, false, false));
  if (blocked) return blocked;
  const { id } = t.r.mount;
  for (let attempt = 0; attempt < 5; attempt++) {
    const { props, versionstamp } = await dav.props.get(id, t.r.key);
    const next: DeadProps = { ...props };
    const status = new Map<string, { xml: string; code: number }>();
    for (const { set, el } of ops) {
      const code = isLive(el) ? 403 : 200;
      if (code === 200 && set) next[clark(el)] = serializeElement(el);
      else if (code === 200) delete next[clark(el)];
      const prev = status.get(clark(el))?.code ?? 200;
      status.set(clark(el), { xml: nameXml(el), code: Math.max(prev, code) });
    }
    if (new TextEncoder().encode(JSON.stringify(next)).length > MAX_PROPS_BYTES) {
      for (const s of status.values()) s.code = Math.max(s.code, 507);
    }
    const failed = [...status.values()].some((s) => s.code !== 200);
    if (!failed && !await dav.props.put(id, t.r.key, next, versionstamp)) continue;
    const byCode = new Map<number, string[]>();
    for (const s of status.values()) {
      const code = failed && s.code === 200 ? 424 : s.code;
      byCode.set(code, [...byCode.get(code) ?? [], s.xml]);
    }
    return multistatus([responseXml(davHref(t.path, t.entry.type === "directory"), byCode)]);
  }
  return davText(409, "conflict", req.lang);
}
