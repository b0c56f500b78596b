/**
 * Public access to file shares: opening (counted), password checks, and delivery of bytes.
 * Every route that hands out a share's bytes or links to them (info, verify, view, download,
 * Office preview) is admitted by the access funnel (`access_funnel.ts`): a view token from
 * an earlier counted open, or one counted view. Links carry the token, so they do not count
 * again, and never outlive it.
 */
import type { FileRecord, FileRepo } from "./file_repo.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { AccessFunnel } from "./access_funnel.ts";
import type { AttemptGuard } from "../services/attempts.ts";
import type { Auth } from "../services/auth.ts";
import { AppError, badRequest, gone, notFound, unauthorized } from "../errors.ts";
import { verifyPassword } from "../lib/crypto.ts";
import type { PublicFileView } from "../../shared/schemas/files.ts";
import type { GetResult } from "../storage/driver.ts";
import { type RequestedRange, resolveRequestedRange } from "../storage/ranges.ts";
import { s3UrlTtlMs, type TtlCache } from "../services/caches.ts";
import { SLUG_PATTERN } from "../../shared/slug.ts";
import { shareFacts } from "./share_facts.ts";

/** True when the caller owns the file share: the admin, or the key that created it. */
export function ownsFile(auth: Auth, rec: Pick<FileRecord, "created_by">): boolean {
  return auth.type === "admin" ||
    (auth.type === "apikey" && rec.created_by === `apikey:${auth.id}`);
}

export type Delivery =
  | { kind: "redirect"; url: string }
  | { kind: "stream"; rec: FileRecord; object: GetResult };

/** True once a file share's expiry time has come. */
const isPastExpiry = (rec: FileRecord) =>
  rec.expires_at !== null && Date.parse(rec.expires_at) <= Date.now();

export class FileAccessService {
  constructor(
    private repo: FileRepo,
    private storage: StorageConfigService,
    private attempts: AttemptGuard,
    private funnel: AccessFunnel<FileRecord>,
    /** Presigned GET URLs, keyed by file and config version (see caches.ts). */
    private urlCache: TtlCache<string>,
  ) {}

  /** The live record of a slug; 404 when missing, 410 when expired. */
  async findLive(slug: string): Promise<FileRecord> {
    const value = (await this.repo.getBySlug(slug)).value;
    if (!value) throw await this.missing(slug);
    if (isPastExpiry(value)) throw gone("file_expired");
    return value;
  }

  /** The error for a slug no share holds: 410 while its tombstone says it expired, else 404. */
  private async missing(slug: string): Promise<AppError> {
    const swept = SLUG_PATTERN.test(slug) && await this.repo.tombstones.holds(slug);
    return swept ? gone("file_expired") : notFound("file_not_found");
  }

  private async checkPassword(rec: FileRecord, password: string | undefined, ip: string) {
    if (!rec.password_hash) return;
    if (!password) {
      throw new AppError("password_required", 401, {
        slug: rec.slug,
        has_password: true,
        // The browser derives the password (the access token) from the link's key.
        ...(rec.e2e
          ? { e2e: { version: rec.e2e.version, has_password: rec.e2e.has_password } }
          : {}),
      });
    }
    const hash = rec.password_hash;
    const subject = `${ip}|file:${rec.slug}`;
    if (
      !await this.attempts.check("sharePassword", subject, () => verifyPassword(password, hash))
    ) {
      throw unauthorized("wrong_password");
    }
  }

  /** The funnel's password check for a file share (401 / 429 as documented on the routes). */
  private passwordCheck(password: string | undefined, ip: string) {
    return (rec: FileRecord) => this.checkPassword(rec, password, ip);
  }

  private publicView(
    rec: FileRecord,
    views: number,
    token: string,
    auth: Auth,
    owned: boolean,
  ): PublicFileView {
    const q = `?t=${encodeURIComponent(token)}`;
    return {
      id: rec.id,
      slug: rec.slug,
      filename: rec.filename,
      size: rec.size,
      mimetype: rec.mimetype,
      ...shareFacts(rec, views),
      preview_url: `/api/file-view/${encodeURIComponent(rec.slug)}${q}`,
      download_url: `/api/file-download/${encodeURIComponent(rec.slug)}${q}`,
      can_manage: ownsFile(auth, rec),
      own_view: owned,
      ...(rec.e2e ? { e2e: rec.e2e } : {}),
    };
  }

  /**
   * Opens a share (GET public info, or verify with a password); counts one view unless `auth`
   * owns the share.
   */
  async open(slug: string, password: string | undefined, auth: Auth, ip: string) {
    const { entry, views, owned, token } = await this.funnel.admit(slug, {
      checkAccess: this.passwordCheck(password, ip),
      issueToken: true,
      isOwner: (rec) => ownsFile(auth, rec),
    });
    return this.publicView(entry.value, views!, token, auth, owned);
  }

  /** Metadata only, for server rendering: never counts a view and never exposes links. */
  async peek(slug: string) {
    const found = SLUG_PATTERN.test(slug) ? await this.repo.findShare(slug) : null;
    if (!found) throw await this.missing(slug);
    const { value: rec, views } = found;
    if (isPastExpiry(rec) || (rec.max_views > 0 && views >= rec.max_views)) {
      throw gone("file_expired");
    }
    return {
      slug: rec.slug,
      filename: rec.filename,
      size: rec.size,
      mimetype: rec.mimetype,
      has_password: rec.password_hash !== null,
      max_views: rec.max_views,
      views,
      expires_at: rec.expires_at,
      created_at: rec.created_at,
      remark: rec.password_hash ? "" : rec.remark,
      // Without the sealed metadata: that comes with the counted open.
      ...(rec.e2e ? { e2e: { version: rec.e2e.version, has_password: rec.e2e.has_password } } : {}),
    };
  }

  /**
   * Resolves a byte request through the funnel (a valid token, or the password if any and one
   * counted view), then streams or redirects to a presigned URL.
   */
  async deliver(
    slug: string,
    opts: {
      token?: string;
      password?: string;
      range?: RequestedRange;
      download: boolean;
      auth: Auth;
      ip: string;
    },
  ): Promise<Delivery> {
    const { entry } = await this.funnel.admit(slug, {
      token: opts.token,
      checkAccess: this.passwordCheck(opts.password, opts.ip),
      isOwner: (rec) => ownsFile(opts.auth, rec),
    });
    const rec = entry.value;
    const cfg = await this.storage.getRecord(rec.storage_config_id);
    const driver = await this.storage.driverFor(cfg);
    if (!rec.use_proxy && driver.stat().kind === "s3") {
      // The record was read and counted above; the cache only spares a new signature. An edit
      // of the file or of its config changes the key, and an entry lives half the URL's life.
      const cacheKey = [rec.id, rec.updated_at, cfg.id, cfg.updated_at, opts.download ? "d" : "v"]
        .join("|");
      const url = await this.urlCache.getOrSet(
        cacheKey,
        () =>
          driver.presignGet(rec.storage_path, {
            expiresIn: cfg.signature_expires_in,
            filename: rec.filename,
            contentType: rec.mimetype,
            download: opts.download,
          }),
        s3UrlTtlMs(cfg.signature_expires_in),
      );
      return { kind: "redirect", url };
    }
    const range = resolveRequestedRange(opts.range, rec.size);
    const object = await driver.get(rec.storage_path, { range });
    return { kind: "stream", rec, object };
  }

  /**
   * Links an online Office viewer can fetch, admitted by the funnel like a download: a view
   * token `t` from a counted open (the links reuse it, so they expire with it), or the
   * password if any and one counted view.
   */
  async officeLinks(
    slug: string,
    opts: { token?: string; password?: string; origin: string; auth: Auth; ip: string },
  ) {
    const { entry, token } = await this.funnel.admit(slug, {
      token: opts.token,
      checkAccess: (rec) => {
        // An online viewer would get ciphertext: refused before a view is counted.
        if (rec.e2e) throw badRequest("e2e_server_preview_off");
        return this.checkPassword(rec, opts.password, opts.ip);
      },
      issueToken: true,
      isOwner: (rec) => ownsFile(opts.auth, rec),
    });
    // Admitted by a token (nothing counted), the answer is the same.
    if (entry.value.e2e) throw badRequest("e2e_server_preview_off");
    const url = `${opts.origin}/api/file-download/${encodeURIComponent(entry.value.slug)}?t=${
      encodeURIComponent(token)
    }`;
    return {
      url,
      microsoft: `https://view.officeapps.live.com/op/embed.aspx?src=${encodeURIComponent(url)}`,
      google: `https://docs.google.com/gview?embedded=true&url=${encodeURIComponent(url)}`,
    };
  }
}
