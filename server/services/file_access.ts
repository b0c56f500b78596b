/**
 * Public access to file shares: opening (counted), password checks, and delivery of bytes.
 * A counted open hands out preview/download links with a signed token that do not count again.
 */
import type { FileRecord, FileRepo } from "../kv/file_repo.ts";
import type { StorageConfigService } from "./storage_configs.ts";
import type { AttemptGuard } from "./attempts.ts";
import type { Signer } from "./view_tokens.ts";
import type { Auth } from "./auth.ts";
import { AppError, gone, notFound, unauthorized } from "../errors.ts";
import { verifyPassword } from "./crypto.ts";
import type { PublicFileView } from "../../shared/schemas/files.ts";
import type { GetResult } from "../storage/driver.ts";
import { type RequestedRange, resolveRequestedRange } from "../storage/ranges.ts";
import { s3UrlTtlMs, type TtlCache } from "./caches.ts";

const LINK_TTL_MS = 60 * 60_000;

export type Delivery =
  | { kind: "redirect"; url: string }
  | { kind: "stream"; rec: FileRecord; object: GetResult };

export class FileAccessService {
  constructor(
    private repo: FileRepo,
    private storage: StorageConfigService,
    private attempts: AttemptGuard,
    private signer: Signer,
    /** Presigned GET URLs, keyed by file and config version (see caches.ts). */
    private urlCache: TtlCache<string>,
  ) {}

  /** The live record of a slug with its versionstamp; 404 when missing, 410 when expired. */
  async findLiveEntry(slug: string): Promise<Deno.KvEntry<FileRecord>> {
    const entry = await this.repo.getBySlug(slug);
    const value = entry.value;
    if (!value) throw notFound("file_not_found");
    if (value.expires_at && Date.parse(value.expires_at) <= Date.now()) throw gone("file_expired");
    return entry as Deno.KvEntry<FileRecord>;
  }

  /** The live record of a slug; 404 when missing, 410 when expired. */
  async findLive(slug: string): Promise<FileRecord> {
    return (await this.findLiveEntry(slug)).value;
  }

  private async checkPassword(rec: FileRecord, password: string | undefined, ip: string) {
    if (!rec.password_hash) return;
    if (!password) {
      throw new AppError("password_required", 401, { slug: rec.slug, has_password: true });
    }
    const hash = rec.password_hash;
    const subject = `${ip}|file:${rec.slug}`;
    if (
      !await this.attempts.check("sharePassword", subject, () => verifyPassword(password, hash))
    ) {
      throw unauthorized("wrong_password");
    }
  }

  /**
   * Checks the password if any and counts one view; returns the record it counted against
   * (read again when it changed meanwhile).
   */
  private async openCounted(slug: string, password: string | undefined, ip: string) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const entry = await this.findLiveEntry(slug);
      await this.checkPassword(entry.value, password, ip);
      const res = await this.repo.countView(entry);
      if (res.ok) return { rec: entry.value, views: res.views };
      if (res.reason === "used_up") throw gone("file_expired");
    }
    throw new AppError("conflict", 409);
  }

  private async publicView(rec: FileRecord, views: number, auth: Auth): Promise<PublicFileView> {
    const token = await this.signer.issue(`file:${rec.id}`, LINK_TTL_MS);
    const q = `?t=${encodeURIComponent(token)}`;
    return {
      id: rec.id,
      slug: rec.slug,
      filename: rec.filename,
      size: rec.size,
      mimetype: rec.mimetype,
      remark: rec.remark,
      has_password: rec.password_hash !== null,
      expires_at: rec.expires_at,
      max_views: rec.max_views,
      views,
      created_at: rec.created_at,
      preview_url: `/api/file-view/${encodeURIComponent(rec.slug)}${q}`,
      download_url: `/api/file-download/${encodeURIComponent(rec.slug)}${q}`,
      can_manage: auth.type === "admin" ||
        (auth.type === "apikey" && rec.created_by === `apikey:${auth.id}`),
    };
  }

  /** Opens a share (GET public info, or verify with a password); counts one view. */
  async open(slug: string, password: string | undefined, auth: Auth, ip: string) {
    const { rec, views } = await this.openCounted(slug, password, ip);
    return await this.publicView(rec, views, auth);
  }

  /** Metadata only, for server rendering: never counts a view and never exposes links. */
  async peek(slug: string) {
    const rec = await this.findLive(slug);
    const views = await this.repo.readViews(rec.id);
    if (rec.max_views > 0 && views >= rec.max_views) throw gone("file_expired");
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
    };
  }

  /**
   * Resolves a byte request: a valid token skips counting; otherwise the password (if any) is
   * checked and one view is counted. Then streams or redirects to a presigned URL.
   */
  async deliver(
    slug: string,
    opts: {
      token?: string;
      password?: string;
      range?: RequestedRange;
      download: boolean;
      ip: string;
    },
  ): Promise<Delivery> {
    let rec = await this.findLive(slug);
    if (!await this.signer.verify(`file:${rec.id}`, opts.token)) {
      rec = (await this.openCounted(slug, opts.password, opts.ip)).rec;
    }
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

  /** A URL an online Office viewer can fetch (signed, so it works without the password). */
  async officeLinks(slug: string, password: string | undefined, origin: string, ip: string) {
    const rec = await this.findLive(slug);
    await this.checkPassword(rec, password, ip);
    const token = await this.signer.issue(`file:${rec.id}`, LINK_TTL_MS);
    const url = `${origin}/api/file-download/${encodeURIComponent(rec.slug)}?t=${
      encodeURIComponent(token)
    }`;
    return {
      url,
      microsoft: `https://view.officeapps.live.com/op/embed.aspx?src=${encodeURIComponent(url)}`,
      google: `https://docs.google.com/gview?embedded=true&url=${encodeURIComponent(url)}`,
    };
  }
}
