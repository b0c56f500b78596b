/**
 * WebDAV LOCK and UNLOCK (RFC 4918 §9.10-9.11): new exclusive or shared write locks (a LOCK
 * on an unmapped URL creates an empty file and answers 201), refreshes through the If header
 * (also through a member of a locked collection), and UNLOCK by Lock-Token.
 */
import type { DavContext, DavRequest, DavTarget } from "./webdav_context.ts";
import { creatorOf } from "../services/auth.ts";
import { activeLockXml, coveringLocks, parseTimeout } from "./webdav_locks.ts";
import type { LockRecord } from "./webdav_lock_repo.ts";
import { parseIfHeader, submittedTokens } from "./webdav_if.ts";
import { baseName, davHref, parentOf } from "./webdav_paths.ts";
import { davError, davText, davXml, readBodyText } from "./webdav_http.ts";
import {
  childElements,
  DAV_NS,
  findChild,
  parseXml,
  serializeNodes,
  type XmlElement,
  XmlError,
} from "./webdav_xml.ts";

type LockInfo = { scope: "exclusive" | "shared"; owner: string };

function parseLockInfo(body: string): LockInfo | null {
  let root: XmlElement;
  try {
    root = parseXml(body);
  } catch (err) {
    if (err instanceof XmlError) return null;
    throw err;
  }
  if (root.ns !== DAV_NS || root.name !== "lockinfo") return null;
  const scopeEl = findChild(root, DAV_NS, "lockscope");
  const scope = scopeEl && childElements(scopeEl).find((c) => c.ns === DAV_NS)?.name;
  const type = findChild(root, DAV_NS, "locktype");
  if (scope !== "exclusive" && scope !== "shared") return null;
  if (!type || !findChild(type, DAV_NS, "write")) return null;
  const owner = findChild(root, DAV_NS, "owner");
  return { scope, owner: owner ? serializeNodes(owner.children) : "" };
}

function lockReply(status: number, lock: LockRecord, t: DavTarget, extra = {}): Response {
  const collection = t.entry?.type === "directory";
  const mountPath = t.r!.mount.mount_path;
  return davXml(
    status,
    "prop",
    `<D:lockdiscovery>${
      activeLockXml(lock, mountPath, lock.root === t.r!.key ? collection : true)
    }` +
      `</D:lockdiscovery>`,
    extra,
  );
}

/** LOCK: a new lock, or a refresh when the body is empty. */
export async function handleLock(dav: DavContext, req: DavRequest): Promise<Response> {
  const body = (await readBodyText(req.body)).trim();
  const t = await dav.target(req);
  if (!t.r) return davText(403, "webdav_virtual_folder", req.lang);
  const timeout = parseTimeout(req.headers.get("timeout"));
  const principal = creatorOf(req.auth);

  if (!body) {
    const header = req.headers.get("if");
    if (!header) return davText(400, "webdav_lock_token_invalid", req.lang);
    const tokens = submittedTokens(parseIfHeader(header));
    const lock = coveringLocks(await dav.locks.list(t.r.mount.id), t.r.key)
      .find((l) => tokens.has(l.token) && l.principal === principal);
    const refreshed = lock ? await dav.locks.refresh(lock, timeout) : null;
    if (!refreshed) return davText(412, "webdav_lock_token_invalid", req.lang);
    return lockReply(200, refreshed, t);
  }

  const info = parseLockInfo(body);
  if (!info) return davText(400, "webdav_xml_invalid", req.lang);
  const depthHeader = (req.headers.get("depth") ?? "infinity").trim().toLowerCase();
  if (depthHeader !== "0" && depthHeader !== "infinity") {
    return davText(400, "webdav_depth_invalid", req.lang);
  }
  let created = false;
  if (!t.entry) {
    if (!t.r.key) return davText(403, "webdav_virtual_folder", req.lang);
    if (!await dav.isCollection(parentOf(t.path), req.auth)) {
      return davText(409, "webdav_parent_missing", req.lang);
    }
    const blocked = await dav.checkWrite(req, t, dav.lockTarget(t, false, true));
    if (blocked) return blocked;
    const empty = new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    await dav.fs.upload(parentOf(t.path), baseName(t.path), empty, req.auth, 0);
    created = true;
  }
  const result = await dav.locks.create({
    mount_id: t.r.mount.id,
    root: t.r.key,
    depth: depthHeader === "0" ? "0" : "infinity",
    scope: info.scope,
    owner: info.owner,
    timeout_s: timeout,
    principal,
  });
  if ("conflict" in result) {
    const c = result.conflict;
    const root = c.root ? `${t.r.mount.mount_path}/${c.root}` : t.r.mount.mount_path;
    return davError(423, "no-conflicting-lock", "webdav_locked", davHref(root, false));
  }
  const entry = created ? { ...t, entry: await dav.fs.stat(t.path, req.auth) } : t;
  return lockReply(created ? 201 : 200, result.lock, entry, {
    "Lock-Token": `<${result.lock.token}>`,
  });
}

/** UNLOCK: removes the lock named by Lock-Token; 409 when it does not cover the target. */
export async function handleUnlock(dav: DavContext, req: DavRequest): Promise<Response> {
  const token = /^\s*<([^>]+)>\s*$/.exec(req.headers.get("lock-token") ?? "")?.[1];
  if (!token) return davText(400, "webdav_lock_token_invalid", req.lang);
  const t = await dav.target(req);
  if (!t.r) return davText(409, "webdav_lock_token_invalid", req.lang);
  const lock = coveringLocks(await dav.locks.list(t.r.mount.id), t.r.key)
    .find((l) => l.token === token);
  if (!lock) {
    return davError(409, "lock-token-matches-request-uri", "webdav_lock_token_invalid");
  }
  if (lock.principal !== creatorOf(req.auth) && req.auth.type !== "admin") {
    return davText(403, "forbidden", req.lang);
  }
  await dav.locks.remove(lock);
  return new Response(null, { status: 204 });
}
