/**
 * Text shares (docs/PRODUCT.md §3.1, §7.2 and §12). Opening a paste (JSON or raw) passes the
 * access funnel (`access_funnel.ts`), which counts a view *before* the content is read, so a
 * view-limited paste is delivered exactly `max_views` times however many requests race for
 * it. Server rendering uses `peek`, which never counts.
 */
import { ulid } from "../lib/ulid.ts";
import {
  type PasteEntry,
  type PasteRecord,
  type PasteRepo,
  type PasteShareEntry,
} from "./paste_repo.ts";
import type { AccessFunnel } from "./access_funnel.ts";
import { canManage, isPastExpiry, isUsedUp, previewOf, toListItem, toView } from "./paste_views.ts";
import { clearExpired, deleteExpired, deleteMany, ID_PATTERN } from "./paste_removal.ts";
import { slugHeldBySweptShare } from "./tombstones.ts";
import type { AttemptGuard } from "../services/attempts.ts";
import type { Config } from "../config.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import { hashAccessToken, hashPassword, randomBase62, verifyPassword } from "../lib/crypto.ts";
import { AppError, badRequest, conflict, forbidden, notFound } from "../errors.ts";
import { RANDOM_SLUG_LENGTH } from "../../shared/constants.ts";
import {
  isValidSlug,
  type PasteBatchDeleteResult,
  type PasteCreate,
  type PasteList,
  type PasteListQuery,
  type PasteUpdate,
  type PasteView,
  SLUG_PATTERN,
} from "../../shared/schemas/pastes.ts";

const decoder = new TextDecoder();

/**
 * What server rendering may show of a share without counting a view. `version` is the
 * versionstamp of the record the view was made from: with the record's id and the views, it
 * names everything the view holds (the content is the record's, inline or by its content id).
 */
export type PastePeek =
  | { state: "missing" | "expired" }
  | { state: "open"; view: PasteView; version: string }
  | { state: "locked"; view: PasteView; version: string; requires: "password" | "view" };

/** Text shares: create, open (through the access funnel), manage and expire pastes. */
/**
 * True when a paste's raw link needs a view token: following it must neither count a second
 * view nor carry the password in the URL (history, proxy logs).
 */
const needsRawToken = (rec: PasteRecord) => rec.password_hash !== null || rec.max_views > 0;

export class PasteService {
  constructor(
    private repo: PasteRepo,
    private attempts: AttemptGuard,
    private config: Pick<Config, "kdfIterations">,
    private funnel: AccessFunnel<PasteRecord, PasteShareEntry>,
  ) {}

  /** Creates a paste. Throws 400 for a past expiry, 409 slug_taken for a used custom slug. */
  async create(auth: Auth, input: PasteCreate): Promise<PasteView> {
    const expiresAt = this.checkExpiry(input.expires_at, null);
    if (input.slug) await this.checkNotSwept(input.slug);
    // An end-to-end encrypted paste's password is its access token (checked by the schema).
    const passwordHash = input.e2e
      ? hashAccessToken(input.password!)
      : input.password
      ? await hashPassword(input.password, this.config.kdfIterations)
      : null;
    // Small content goes into the record, one chunk into the record's commit; larger content
    // is written first.
    const stored = await this.repo.storeContent(input.content);
    const now = new Date().toISOString();
    try {
      for (let attempt = 0; attempt < 30; attempt++) {
        const slug = input.slug ??
          randomBase62(RANDOM_SLUG_LENGTH + Math.floor(attempt / 10));
        if (!isValidSlug(slug)) continue;
        const rec: PasteRecord = {
          id: ulid(),
          slug,
          remark: input.remark,
          password_hash: passwordHash,
          expires_at: expiresAt,
          max_views: input.max_views,
          created_at: now,
          updated_at: now,
          created_by: creatorOf(auth),
          ...stored.ref,
          preview: input.e2e ? "" : previewOf(input.content),
          ...(input.e2e ? { e2e: input.e2e } : {}),
        };
        const res = await this.repo.insert(rec, stored.firstChunk);
        if (res === "ok") return toView(rec, 0, input.content, auth);
        if (res === "slug_taken" && input.slug) throw conflict("slug_taken");
      }
      throw new AppError("save_failed", 500);
    } catch (err) {
      if (stored.written) await this.repo.deleteContent(stored.ref.content_id).catch(() => {});
      throw err;
    }
  }

  /** GET /api/paste/:slug: counts a view. Throws 404, 410, or 403 password_required. */
  open(slug: string, auth: Auth): Promise<PasteView> {
    return this.deliver(slug, auth, (rec) => {
      if (rec.password_hash) throw this.passwordRequired(rec);
      return Promise.resolve();
    });
  }

  /** Opens a paste with its password: 401 wrong_password, 429 after too many failures. */
  unlock(slug: string, password: string, auth: Auth, clientIp: string): Promise<PasteView> {
    return this.deliver(slug, auth, (rec) => this.checkPassword(rec, password, clientIp));
  }

  /**
   * The raw text of a paste, as a string or as its UTF-8 bytes, whichever it is stored as. A
   * view token from the page's counted open (`raw_url`) admits it without counting again and
   * without the password; otherwise it counts a view (`password` from the query, for curl),
   * unless `auth` owns the paste.
   */
  async openRaw(
    slug: string,
    access: { token?: string; password?: string },
    auth: Auth,
    clientIp: string,
  ): Promise<string | Uint8Array<ArrayBuffer>> {
    const password = access.password;
    const { entry } = await this.funnel.admit(slug, {
      withViews: false, // the text alone: an open paste's counter is not read
      token: access.token,
      isOwner: (rec) => canManage(auth, rec),
      checkAccess: (rec) => {
        if (rec.password_hash && !password) throw this.passwordRequired(rec);
        return this.checkPassword(rec, password ?? "", clientIp);
      },
    });
    return entry.value.content_text ?? (await this.readBytes(entry)).bytes;
  }

  /** A share's state for server rendering; never counts a view. */
  async peek(slug: string): Promise<PastePeek> {
    const entry = SLUG_PATTERN.test(slug) ? await this.repo.findShare(slug) : null;
    if (!entry) {
      const swept = SLUG_PATTERN.test(slug) && await this.repo.tombstones.holds(slug);
      return { state: swept ? "expired" : "missing" };
    }
    const { value: rec, views } = entry;
    if (isPastExpiry(rec, Date.now()) || isUsedUp(rec, views)) return { state: "expired" };
    const anonymous: Auth = { type: "none" };
    if (rec.password_hash || rec.max_views > 0) {
      const requires = rec.password_hash ? "password" : "view";
      const view = toView(rec, views, null, anonymous);
      if (rec.password_hash) view.remark = null; // shown once the password is given
      return { state: "locked", view, version: entry.versionstamp, requires };
    }
    // The content may come from a newer version of the record (replaced meanwhile).
    const { entry: current, text } = await this.readText(entry);
    return {
      state: "open",
      view: toView(current.value, views, text, anonymous),
      version: current.versionstamp,
    };
  }

  /**
   * Lists pastes the caller manages (admin: all; key: its own), newest first. A page reads its
   * items and the entries before it, and its total from counters; a search reads the search
   * index and counts at most MAX_MATCHES (share_search.ts).
   */
  async list(auth: Auth, q: PasteListQuery): Promise<PasteList> {
    const createdBy = auth.type === "admin" ? undefined : creatorOf(auth);
    const limit = q.limit;
    const offset = q.offset ?? ((q.page ?? 1) - 1) * limit;
    const page = q.page ?? Math.floor(offset / limit) + 1;
    const { items: slice, total } = q.search
      ? await this.repo.lists.search(q.search, createdBy, offset, limit)
      : await this.repo.lists.page(createdBy, offset, limit);
    const views = await this.repo.getViews(slice);
    const now = Date.now();
    const items = slice.map((r) => toListItem(r, views.get(r.id) ?? 0, auth, now));
    return { items, total, page, limit, offset };
  }

  /** One paste with its content, for its manager; no view is counted. 404 or 403 not_creator. */
  async get(auth: Auth, id: string): Promise<PasteView> {
    const entry = await this.managed(auth, id);
    const { entry: current, text } = await this.readText(entry);
    const views = (await this.repo.getViews([current.value])).get(current.value.id) ?? 0;
    return toView(current.value, views, text, auth);
  }

  /** Edits a paste; sending max_views resets the view counter. 404, 403, 400, 409. */
  async update(auth: Auth, id: string, input: PasteUpdate): Promise<PasteView> {
    const prev = await this.managed(auth, id);
    const old = prev.value;
    if (input.slug !== undefined && input.slug !== old.slug) await this.checkNotSwept(input.slug);
    // The server cannot re-encrypt, and the password is the key's access token.
    if (old.e2e && (input.content !== undefined || input.password !== undefined)) {
      throw badRequest("e2e_not_editable", {
        field: input.content !== undefined ? "content" : "password",
      });
    }
    const next: PasteRecord = { ...old, updated_at: new Date().toISOString() };
    if (input.slug !== undefined) next.slug = input.slug;
    if (input.remark !== undefined) next.remark = input.remark || null;
    if (input.password !== undefined) {
      next.password_hash = input.password
        ? await hashPassword(input.password, this.config.kdfIterations)
        : null;
    }
    if (input.expires_at !== undefined) {
      next.expires_at = this.checkExpiry(input.expires_at, old.expires_at);
    }
    if (input.max_views !== undefined) next.max_views = input.max_views;
    let firstChunk: Uint8Array | undefined;
    if (input.content !== undefined) {
      const stored = await this.repo.storeContent(input.content);
      delete next.content_text;
      Object.assign(next, stored.ref, { preview: previewOf(input.content) });
      firstChunk = stored.firstChunk;
    }
    const resetViews = input.max_views !== undefined;
    const res = await this.repo.replace(prev, next, resetViews, firstChunk);
    if (res !== "ok") {
      if (next.content_id !== old.content_id) await this.repo.deleteContent(next.content_id);
      throw conflict(res === "slug_taken" ? "slug_taken" : "conflict");
    }
    if (next.content_id !== old.content_id) await this.repo.deleteContent(old.content_id);
    const text = input.content ?? (await this.readText({ ...prev, value: next })).text;
    const views = resetViews ? 0 : (await this.repo.getViews([next])).get(next.id) ?? 0;
    return toView(next, views, text, auth);
  }

  /** Deletes the given pastes the caller manages; the others are skipped and reported. */
  deleteMany(auth: Auth, ids: string[]): Promise<PasteBatchDeleteResult> {
    return deleteMany(this.repo, auth, ids);
  }

  /** Deletes expired and used-up pastes the caller manages. */
  clearExpired(auth: Auth): Promise<{ deleted: number }> {
    return clearExpired(this.repo, auth);
  }

  /** Deletes every paste whose expiry is at or before `now` (the sweeper); returns the count. */
  deleteExpired(now: number): Promise<number> {
    return deleteExpired(this.repo, now);
  }

  /**
   * Admits one delivery through the funnel (availability, access, one counted view), then
   * reads the content of the record it counted against.
   */
  private async deliver(
    slug: string,
    auth: Auth,
    checkAccess: (rec: PasteRecord) => Promise<void>,
  ): Promise<PasteView> {
    const { entry, views, owned, token } = await this.funnel.admit(slug, {
      checkAccess,
      issueToken: needsRawToken,
      isOwner: (rec) => canManage(auth, rec),
    });
    const { entry: current, text } = await this.readText(entry);
    const view = toView(current.value, views!, text, auth);
    view.own_view = owned;
    if (token) view.raw_url = `${view.raw_url}?t=${encodeURIComponent(token)}`;
    return view;
  }

  /** Reads the text of a record; if its version was replaced meanwhile, of the new one. */
  private async readText(
    entry: PasteEntry & { content?: Uint8Array<ArrayBuffer> },
  ): Promise<{ entry: PasteEntry; text: string }> {
    if (entry.value.content_text !== undefined) return { entry, text: entry.value.content_text };
    const read = await this.readBytes(entry);
    return { entry: read.entry, text: decoder.decode(read.bytes) };
  }

  /**
   * Reads the content of a record (or takes what was read with it, in the same snapshot); if its
   * version was replaced meanwhile, of the new one.
   */
  private async readBytes(
    entry: PasteEntry & { content?: Uint8Array<ArrayBuffer> },
  ): Promise<{ entry: PasteEntry; bytes: Uint8Array<ArrayBuffer> }> {
    if (entry.content) return { entry, bytes: entry.content };
    let current: PasteEntry | null = entry;
    for (let attempt = 0; attempt < 5 && current; attempt++) {
      const bytes = await this.repo.readContent(current.value);
      if (bytes) return { entry: current, bytes };
      current = await this.repo.get(entry.value.id);
    }
    throw notFound("paste_not_found");
  }

  /** 409 slug_taken (saying why) while a swept paste's tombstone still reserves `slug`. */
  private async checkNotSwept(slug: string): Promise<void> {
    if (!await this.repo.tombstones.release(slug)) throw slugHeldBySweptShare();
  }

  /** The paste with this id if the caller may manage it: 404 paste_not_found, 403 not_creator. */
  /** A paste by id, or by slug (CloudPaste's client edits by slug); 404 or 403 not_creator. */
  private async managed(auth: Auth, idOrSlug: string): Promise<PasteEntry> {
    let entry = ID_PATTERN.test(idOrSlug) ? await this.repo.get(idOrSlug) : null;
    if (!entry && SLUG_PATTERN.test(idOrSlug)) entry = await this.repo.getBySlug(idOrSlug);
    if (!entry) throw notFound("paste_not_found");
    if (!canManage(auth, entry.value)) throw forbidden("not_creator");
    return entry;
  }

  /** The 403 of a locked paste: its slug only (the remark, like a file's, waits for the password). */
  private passwordRequired(rec: PasteRecord): AppError {
    return new AppError("password_required", 403, {
      slug: rec.slug,
      has_password: true,
      ...(rec.e2e ? { e2e: rec.e2e } : {}),
    });
  }

  /** Verifies a share password, rate-limited per client and slug (429 too_many_requests). */
  private async checkPassword(rec: PasteRecord, password: string, clientIp: string) {
    const hash = rec.password_hash;
    if (!hash) return;
    const subject = `${clientIp}|${rec.slug}`;
    if (
      !await this.attempts.check("sharePassword", subject, () => verifyPassword(password, hash))
    ) {
      throw new AppError("wrong_password", 401);
    }
  }

  /** Normalises an expiry to ISO UTC; it must lie in the future unless it is `unchanged`. */
  private checkExpiry(value: string | null, unchanged: string | null): string | null {
    if (value === null) return null;
    const ms = Date.parse(value);
    if (!Number.isFinite(ms)) throw badRequest("expires_at_invalid");
    const iso = new Date(ms).toISOString();
    if (ms <= Date.now() && iso !== unchanged) throw badRequest("expires_at_invalid");
    return iso;
  }
}
