/**
 * The shapes the WebDAV method modules share: one request, its target, and the part of
 * WebdavService (webdav.ts) that PUT, COPY/MOVE, LOCK/UNLOCK and PROPFIND/PROPPATCH use. Kept
 * apart so those modules and webdav.ts do not import each other.
 */
import type { FsEntry } from "../fs/fs_entry.ts";
import type { FsService } from "../fs/fs.ts";
import type { MountService, Resolved } from "../services/mounts.ts";
import type { SettingsService } from "../services/settings.ts";
import type { Auth } from "../services/auth.ts";
import type { WebdavPropRepo } from "./webdav_prop_repo.ts";
import type { Language } from "../../shared/constants.ts";
import type { LockTarget, WebdavLocks } from "./webdav_locks.ts";

/** One WebDAV request, already authenticated and authorised by the route. */
export type DavRequest = {
  method: string;
  url: URL;
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
  auth: Auth;
  lang: Language;
};

/** A request target: its virtual path, what is there, and its mount (null above mounts). */
export type DavTarget = {
  path: string;
  slash: boolean;
  entry: FsEntry | null;
  r: Resolved | null;
};

/** What the method modules call on the WebDAV service; WebdavService implements it. */
export interface DavContext {
  readonly fs: FsService;
  readonly mounts: MountService;
  readonly settings: SettingsService;
  readonly props: WebdavPropRepo;
  readonly locks: WebdavLocks;
  target(req: DavRequest, at?: { path: string; slash: boolean }): Promise<DavTarget>;
  isCollection(path: string, auth: Auth): Promise<boolean>;
  checkWrite(req: DavRequest, t: DavTarget, targets: LockTarget[]): Promise<Response | null>;
  lockTarget(t: DavTarget, deep: boolean, membership: boolean): LockTarget[];
  keepParent(path: string, auth: Auth): Promise<void>;
  removeResource(t: DavTarget, auth: Auth): Promise<void>;
}
