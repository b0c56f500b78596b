/**
 * WebDAV (RFC 4918, class 1 and 2) over the mount explorer's filesystem. Mounts appear as
 * folders under `/dav/`; every read goes through FsService with the caller's base path, and
 * every write goes through FsService's write methods so the search index stays current.
 * Dead properties and locks live in KV. This module holds the shared plumbing and the simple
 * methods; PUT, COPY/MOVE, LOCK/UNLOCK and PROPFIND/PROPPATCH have modules of their own.
 *
 * Collections on the storage side vanish when their last member goes (S3 folders do; the
 * local driver prunes empty directories the same way), while WebDAV clients expect a
 * collection to stay until it is deleted. After removing or moving a member, `keepParent`
 * therefore puts the parent folder back when it went away.
 */
import type { FsService } from "../fs/fs.ts";
import type { MountService, Resolved } from "../services/mounts.ts";
import type { SettingsService } from "../services/settings.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import type { WebdavPropRepo } from "./webdav_prop_repo.ts";
import type { WebdavLockRepo } from "./webdav_lock_repo.ts";
import { AppError } from "../errors.ts";
import { openedFileResponse, userContentHeaders } from "../storage/object_response.ts";
import { parseRange } from "../storage/ranges.ts";
import type { DavContext, DavRequest, DavTarget } from "./webdav_context.ts";
import { coveringLocks, type LockTarget, WebdavLocks } from "./webdav_locks.ts";
import { evaluateIf, type IfList, parseIfHeader, submittedTokens } from "./webdav_if.ts";
import { davHref, parentOf, parseDavPath, parseDavUrl } from "./webdav_paths.ts";
import { checkPreconditions, DAV_METHODS, davError, davText } from "./webdav_http.ts";
import { escapeXml } from "./webdav_xml.ts";
import { handlePut } from "./webdav_put.ts";
import { handleCopyMove } from "./webdav_copy.ts";
import { handleLock, handleUnlock } from "./webdav_lock_methods.ts";
import { handlePropfind, handleProppatch } from "./webdav_props.ts";

export class WebdavService implements DavContext {
  readonly locks: WebdavLocks;

  constructor(
    readonly fs: FsService,
    readonly mounts: MountService,
    readonly settings: SettingsService,
    readonly props: WebdavPropRepo,
    lockRepo: WebdavLockRepo,
  ) {
    this.locks = new WebdavLocks(lockRepo);
  }

  /** Answers one request. Throws AppErrors that the app renders as plain text. */
  async handle(req: DavRequest): Promise<Response> {
    switch (req.method) {
      case "OPTIONS":
        return new Response(null, {
          status: 200,
          headers: {
            DAV: "1, 2",
            "MS-Author-Via": "DAV",
            Allow: DAV_METHODS.join(", "),
            "Accept-Ranges": "bytes",
          },
        });
      case "GET":
      case "HEAD":
        return await this.get(req);
      case "PUT":
        return await handlePut(this, req);
      case "DELETE":
        return await this.delete(req);
      case "MKCOL":
        return await this.mkcol(req);
      case "COPY":
      case "MOVE":
        return await handleCopyMove(this, req);
      case "LOCK":
        return await handleLock(this, req);
      case "UNLOCK":
        return await handleUnlock(this, req);
      case "PROPFIND":
        return await handlePropfind(this, req);
      case "PROPPATCH":
        return await handleProppatch(this, req);
      default:
        return davText(405, "method_not_allowed", req.lang, { Allow: DAV_METHODS.join(", ") });
    }
  }

  /** Resolves a virtual path: what is there and which mount holds it. */
  async target(req: DavRequest, at?: { path: string; slash: boolean }): Promise<DavTarget> {
    const { path, slash } = at ?? parseDavPath(req.url.pathname);
    const entry = await this.fs.stat(path, req.auth);
    let r: Resolved | null = null;
    try {
      r = await this.mounts.resolve(path, req.auth);
    } catch (err) {
      // Above the mounts (stat has already refused paths outside a key's base path).
      if (!(err instanceof AppError && (err.status === 404 || err.status === 403))) throw err;
    }
    return { path, slash, entry, r };
  }

  /** True when a folder exists at `path` (the parent check of PUT, MKCOL, COPY, MOVE). */
  async isCollection(path: string, auth: Auth): Promise<boolean> {
    return (await this.fs.stat(path, auth))?.type === "directory";
  }

  /**
   * Checks the If header and the locks a write must hold. Returns the 412 or 423 reply, or
   * null when the write may go on.
   */
  async checkWrite(req: DavRequest, t: DavTarget, targets: LockTarget[]): Promise<Response | null> {
    const header = req.headers.get("if");
    const lists: IfList[] | null = header ? parseIfHeader(header) : null;
    if (lists && !await evaluateIf(lists, (res) => this.stateOf(req, res, t))) {
      return davText(412, "webdav_precondition_failed", req.lang);
    }
    const locked = await this.locks.unsatisfied(
      targets,
      submittedTokens(lists),
      creatorOf(req.auth),
    );
    if (!locked) return null;
    const mount = (await this.mounts.list(req.auth)).find((m) => m.id === locked.mount_id);
    const root = mount
      ? (locked.root ? `${mount.mount_path}/${locked.root}` : mount.mount_path)
      : "/";
    return davError(423, "lock-token-submitted", "webdav_locked", davHref(root, false));
  }

  /** The ETag and lock tokens of a resource named in an If header (or the request target). */
  private async stateOf(req: DavRequest, resource: string | null, t: DavTarget) {
    const state = { etag: null as string | null, tokens: new Set<string>() };
    let target = t;
    if (resource !== null) {
      try {
        target = await this.target(req, parseDavUrl(resource, req.url));
      } catch {
        return state;
      }
    }
    state.etag = target.entry?.etag ?? null;
    if (target.r) {
      for (const l of coveringLocks(await this.locks.list(target.r.mount.id), target.r.key)) {
        state.tokens.add(l.token);
      }
    }
    return state;
  }

  /** A write target for lock checks. */
  lockTarget(t: DavTarget, deep: boolean, membership: boolean): LockTarget[] {
    return t.r ? [{ mountId: t.r.mount.id, key: t.r.key, deep, membership }] : [];
  }

  /** Puts back the parent folder of `path` when removing its last member made it vanish. */
  async keepParent(path: string, auth: Auth): Promise<void> {
    const parent = parentOf(path);
    const r = await this.mounts.resolve(parent, auth).catch(() => null);
    if (!r || !r.key) return;
    if (!await this.fs.stat(parent, auth)) await this.fs.mkdir(parent, auth);
  }

  /** GET and HEAD: files stream (or redirect, by the mount's policy); folders list. */
  private async get(req: DavRequest): Promise<Response> {
    const t = await this.target(req);
    if (!t.entry) throw new AppError("file_not_found", 404, { path: t.path });
    if (t.entry.type === "directory") return await this.folderPage(req, t);
    const pre = checkPreconditions(req.headers, t.entry, true);
    const validators: Record<string, string> = {};
    if (t.entry.etag) validators.ETag = t.entry.etag;
    if (t.entry.modified) validators["Last-Modified"] = new Date(t.entry.modified).toUTCString();
    if (pre === 304) return new Response(null, { status: 304, headers: validators });
    if (pre === 412) return davText(412, "webdav_precondition_failed", req.lang);
    const mount = t.r!.mount;
    if (
      req.method === "GET" && mount.webdav_policy === "302_redirect" && mount.storage_type === "s3"
    ) {
      const link = await this.fs.fileLink(t.path, req.auth, { forceDownload: false });
      return new Response(null, {
        status: 302,
        headers: { Location: new URL(link.url, req.url).toString(), "Cache-Control": "no-store" },
      });
    }
    const ifRange = req.headers.get("if-range");
    const rangeOk = !ifRange || ifRange === t.entry.etag ||
      (t.entry.modified !== null &&
        Date.parse(ifRange) >= Math.floor(Date.parse(t.entry.modified) / 1000) * 1000);
    const range = rangeOk ? parseRange(req.headers.get("range")) : undefined;
    const file = await this.fs.download(t.path, req.auth, range);
    return openedFileResponse(file, req.method, false);
  }

  /** A small HTML index of a folder (its first 1000 entries), for browsers. */
  private async folderPage(req: DavRequest, t: DavTarget): Promise<Response> {
    const headers = { ...userContentHeaders(), "Content-Type": "text/html; charset=utf-8" };
    if (req.method === "HEAD") return new Response(null, { status: 200, headers });
    const page = await this.fs.list(t.path, req.auth, { limit: 1000 });
    const rows = page.items.map((e) => {
      const href = davHref(e.path, e.type === "directory");
      const label = e.type === "directory" ? `${e.name}/` : e.name;
      return `<li><a href="${escapeXml(href)}">${escapeXml(label)}</a></li>`;
    });
    const title = escapeXml(t.path);
    const html = `<!doctype html><meta charset="utf-8"><title>${title}</title>` +
      `<h1>${title}</h1><ul>${rows.join("")}</ul>`;
    return new Response(html, { status: 200, headers });
  }

  /** DELETE: a file, or a folder with everything in it. */
  private async delete(req: DavRequest): Promise<Response> {
    const t = await this.target(req);
    if (!t.entry) throw new AppError("file_not_found", 404, { path: t.path });
    if (!t.r || !t.r.key) return davText(403, "webdav_virtual_folder", req.lang);
    const depth = req.headers.get("depth");
    if (t.entry.type === "directory" && depth !== null && depth.toLowerCase() !== "infinity") {
      return davText(400, "webdav_depth_invalid", req.lang);
    }
    const pre = checkPreconditions(req.headers, t.entry, false);
    if (pre) return davText(412, "webdav_precondition_failed", req.lang);
    const blocked = await this.checkWrite(req, t, this.lockTarget(t, true, true));
    if (blocked) return blocked;
    await this.removeResource(t, req.auth);
    await this.keepParent(t.path, req.auth);
    return new Response(null, { status: 204 });
  }

  /** Deletes what is at a target, with its dead properties and locks. */
  async removeResource(t: DavTarget, auth: Auth): Promise<void> {
    const res = await this.fs.remove([t.path], auth);
    if (res.failed.length > 0) {
      const code = res.failed[0].error;
      throw new AppError(
        code === "file_not_found" ? "file_not_found" : "storage_error",
        code === "file_not_found" ? 404 : 500,
      );
    }
    await this.props.deleteTree(t.r!.mount.id, t.r!.key, true);
    await this.locks.removeUnder(t.r!.mount.id, t.r!.key);
  }

  /** MKCOL: a new, empty folder whose parent exists. */
  private async mkcol(req: DavRequest): Promise<Response> {
    if (req.body) {
      const reader = req.body.getReader();
      const first = await reader.read();
      await reader.cancel().catch(() => {});
      if (!first.done && first.value.length > 0) {
        return davText(415, "webdav_body_unsupported", req.lang);
      }
    }
    const t = await this.target(req);
    if (t.entry) return davText(405, "webdav_exists", req.lang, { Allow: DAV_METHODS.join(", ") });
    if (!t.r || !t.r.key) return davText(403, "webdav_virtual_folder", req.lang);
    if (!await this.isCollection(parentOf(t.path), req.auth)) {
      return davText(409, "webdav_parent_missing", req.lang);
    }
    const blocked = await this.checkWrite(req, t, this.lockTarget(t, false, true));
    if (blocked) return blocked;
    await this.fs.mkdir(t.path, req.auth);
    return new Response(null, { status: 201 });
  }
}
