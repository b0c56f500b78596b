/**
 * The access funnel: the one gate every delivery of a share's content passes through (a
 * paste's JSON or raw text; a file's info, inline view, download, preview and Office-viewer
 * links). A delivery is admitted in exactly one of two ways (docs/PRODUCT.md §12):
 *
 * 1. a view token: a valid, unexpired token bound to this share and its current access
 *    generation (password and view limit), handed out by an earlier counted delivery. It
 *    does not count again; or
 * 2. a counted view: the share is live, not used up, the caller passes `checkAccess` (the
 *    password), and its view is counted, unless the caller owns the share (the admin, or the
 *    key that created it): the creator can check a burn-after-reading share without burning it. A share with a limit is counted by the checked
 *    commit of `shares/view_counter.ts`, which moves the counter only while below the limit. A
 *    share without one is counted in memory (`shares/view_tally.ts`) and written a moment later
 *    with `sum`: a statistic needs no durable commit per view.
 *
 * Anything else is refused: 404 missing, 410 expired or used up (before any password is
 * asked; also a swept share's tombstone), or whatever `checkAccess` throws (401 password_required / wrong_password, 429).
 * Counting happens here and nowhere else, through the ledger's `count` and `tally`.
 */
import type { FileRecord, FileRepo, FileShareEntry } from "./file_repo.ts";
import type { PasteRecord, PasteRepo, PasteShareEntry } from "./paste_repo.ts";
import type { CountResult } from "./view_counter.ts";
import type { ErrorCode } from "../../shared/errors.ts";
import { SLUG_PATTERN } from "../../shared/slug.ts";
import { AppError, gone, notFound } from "../errors.ts";
import type { Signer } from "./view_tokens.ts";

/** How long a view token (and the links carrying it) stays valid. */
export const VIEW_TOKEN_TTL_MS = 60 * 60_000;

/** Attempts when the record changes between the read and the count. */
const MAX_ATTEMPTS = 10;

/** The fields of a share record the funnel decides on. */
export type GatedShare = {
  id: string;
  slug: string;
  expires_at: string | null;
  max_views: number;
  password_hash: string | null;
};

/** A share record as read, with the versionstamp the count is checked against. */
export type ShareEntry<R> = { value: R; versionstamp: string };

/**
 * A share as found for a delivery: the record and its views, read together. `views` is null
 * only for a share without a view limit whose caller asked for no view count (`withViews`).
 */
export type FoundShare<R> = ShareEntry<R> & { views: number | null };

/**
 * How the funnel reads and counts one kind of share (in practice: its repo). `F` is what `find`
 * returns, which may carry more than the record (a paste's content read in the same snapshot).
 */
export type ShareLedger<R extends GatedShare, F extends FoundShare<R> = FoundShare<R>> = {
  /** Token subjects and error codes: "file" or "paste". */
  kind: "file" | "paste";
  /**
   * The record of a slug with its views so far, or null when there is none. With `withViews`
   * false an unlimited share may come without its views (null): one key fewer to read.
   */
  find(slug: string, withViews: boolean): Promise<F | null>;
  /** True when a share of this slug expired and was swept (its tombstone answers 410). */
  swept(slug: string): Promise<boolean>;
  /** Counts one view of a limited share with a checked commit; "changed": read it again. */
  count(entry: ShareEntry<R>): Promise<CountResult>;
  /** Counts one view of an unlimited share in memory, written to KV within the flush interval. */
  tally(entry: F): Promise<CountResult>;
};

/** An admitted delivery. */
export type Admission<F> = {
  /** The record the delivery was admitted against, as `find` read it. */
  entry: F;
  /** Views after this delivery; null when a token admitted it (nothing was counted). */
  views: number | null;
  /** True when the share's owner was admitted: the views are as they were, nothing counted. */
  owned: boolean;
  /**
   * A token for follow-up links: the one presented, or a fresh one after a counted view when
   * the caller asked for it (`issueToken`); null otherwise.
   */
  token: string | null;
};

/** How a delivery asks to be admitted. */
export type AdmitOptions<R> = {
  /** A view token presented by the caller. */
  token?: string | null;
  /** The access check (password) a counted view must pass first. */
  checkAccess: (rec: R) => Promise<void>;
  /**
   * Sign a fresh token after a counted view (only callers that hand out links need one); a
   * function decides per record (a paste signs one only when its follow-up link needs it).
   */
  issueToken?: boolean | ((rec: R) => boolean);
  /** True when the caller owns the share: its view is admitted like any other, not counted. */
  isOwner?: (rec: R) => boolean;
  /**
   * False when the caller does not use the view count (a raw text): a share without a view
   * limit is then read without its counter, and the admission's `views` may be null.
   */
  withViews?: boolean;
};

const ERRORS: Record<"file" | "paste", { missing: ErrorCode; gone: ErrorCode }> = {
  file: { missing: "file_not_found", gone: "file_expired" },
  paste: { missing: "paste_not_found", gone: "paste_expired" },
};

const isPast = (iso: string | null) => iso !== null && Date.parse(iso) <= Date.now();

export class AccessFunnel<R extends GatedShare, F extends FoundShare<R> = FoundShare<R>> {
  constructor(private ledger: ShareLedger<R, F>, private signer: Signer) {}

  /**
   * Admits one delivery of a share's content: by a valid `token`, or by counting one view
   * after `checkAccess` passes. Throws 404 when missing, 410 when expired or used up,
   * whatever `checkAccess` throws, and 409 when the record keeps changing.
   */
  admit(
    slug: string,
    opts: AdmitOptions<R> & { issueToken: true },
  ): Promise<Admission<F> & { token: string }>;
  admit(slug: string, opts: AdmitOptions<R>): Promise<Admission<F>>;
  async admit(slug: string, opts: AdmitOptions<R>): Promise<Admission<F>> {
    const errors = ERRORS[this.ledger.kind];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.ledger.find(slug, opts.withViews ?? true);
      if (!entry) {
        throw await this.ledger.swept(slug) ? gone(errors.gone) : notFound(errors.missing);
      }
      const rec = entry.value;
      if (isPast(rec.expires_at)) throw gone(errors.gone);
      if (opts.token && await this.signer.verify(this.subjectOf(rec), opts.token)) {
        return { entry, views: null, owned: false, token: opts.token };
      }
      // A limited share always comes with its views (ShareLedger.find).
      if (rec.max_views > 0 && (entry.views ?? 0) >= rec.max_views) throw gone(errors.gone);
      await opts.checkAccess(rec);
      if (opts.isOwner?.(rec)) {
        return { entry, views: entry.views, owned: true, token: await this.tokenFor(rec, opts) };
      }
      const counted = rec.max_views > 0
        ? await this.ledger.count(entry)
        : await this.ledger.tally(entry);
      if (counted.ok) {
        return { entry, views: counted.views, owned: false, token: await this.tokenFor(rec, opts) };
      }
      if (counted.reason === "used_up") throw gone(errors.gone);
    }
    throw new AppError("conflict", 409);
  }

  /** A fresh token for follow-up links when the caller asked for one, else null. */
  private tokenFor(rec: R, opts: AdmitOptions<R>): Promise<string | null> {
    const wanted = typeof opts.issueToken === "function" ? opts.issueToken(rec) : opts.issueToken;
    return wanted
      ? this.signer.issue(this.subjectOf(rec), VIEW_TOKEN_TTL_MS)
      : Promise.resolve(null);
  }

  /**
   * What a token is bound to: the share and its access generation. Changing the password or
   * the view limit retires every token handed out before; other edits (slug, remark) do not.
   */
  private subjectOf(rec: R): string {
    const generation = `${rec.max_views}|${rec.password_hash ?? ""}`;
    return `${this.ledger.kind}:${rec.id}|${generation}`;
  }
}

/** What a share repository offers the funnel (PasteRepo and FileRepo do). */
type FunnelRepo<R extends GatedShare, F extends FoundShare<R>> = {
  findShare(slug: string, withViews: boolean): Promise<F | null>;
  tombstones: { holds(slug: string): Promise<boolean> };
  countView(entry: ShareEntry<R>): Promise<CountResult>;
  tallyView(entry: F): Promise<CountResult>;
};

/** The funnel over one share repository; a slug that cannot be one is not looked up. */
function funnelOver<R extends GatedShare, F extends FoundShare<R>>(
  kind: "file" | "paste",
  repo: FunnelRepo<R, F>,
  signer: Signer,
): AccessFunnel<R, F> {
  return new AccessFunnel<R, F>({
    kind,
    find: (slug, withViews) =>
      SLUG_PATTERN.test(slug) ? repo.findShare(slug, withViews) : Promise.resolve(null),
    swept: (slug) => SLUG_PATTERN.test(slug) ? repo.tombstones.holds(slug) : Promise.resolve(false),
    count: (entry) => repo.countView(entry),
    tally: (entry) => repo.tallyView(entry),
  }, signer);
}

/** The funnel of file shares. */
export function fileFunnel(
  repo: FileRepo,
  signer: Signer,
): AccessFunnel<FileRecord, FileShareEntry> {
  return funnelOver<FileRecord, FileShareEntry>("file", repo, signer);
}

/** The funnel of pastes; a paste is found with its content when it could be read alongside. */
export function pasteFunnel(
  repo: PasteRepo,
  signer: Signer,
): AccessFunnel<PasteRecord, PasteShareEntry> {
  return funnelOver<PasteRecord, PasteShareEntry>("paste", repo, signer);
}
