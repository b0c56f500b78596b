/**
 * Every KV key is built here. Prefixes are plural snake_case; indexes are `<entity>_by_<field>`.
 * Values of index keys hold the primary id.
 *
 * Many key parts come from requests (slugs, ids, paths). KV refuses keys over 2 KiB with a
 * TypeError, so every builder checks the size of the key it built and throws 400
 * `value_too_long` instead: an oversized value is the caller's mistake, never a server error.
 */
import { AppError } from "../errors.ts";

/** Top-level prefixes that a restore may clear as a whole (one module's records and indexes). */
export type EntityPrefix =
  | "pastes"
  | "pastes_by_slug"
  | "pastes_by_creator"
  | "pastes_by_expiry"
  | "paste_chunks"
  | "paste_views"
  | "paste_grams"
  | "paste_grams_pending"
  | "paste_creator_totals"
  | "files"
  | "files_by_slug"
  | "files_by_creator"
  | "files_by_expiry"
  | "files_by_storage_config"
  | "file_views"
  | "file_grams"
  | "file_grams_pending"
  | "file_creator_totals"
  | "file_bytes_totals"
  | "mounts"
  | "mounts_by_path"
  | "mounts_by_storage_config"
  | "storage_configs"
  | "storage_configs_by_name"
  | "storage_usage"
  | "api_keys"
  | "api_keys_by_hash"
  | "api_keys_by_name"
  | "api_key_last_used"
  | "settings";

/** The two kinds of share that have list indexes (share_index.ts). */
export type ShareKind = "paste" | "file";
/** The monotonic counters of a creator's totals (share_index.ts). */
export type TotalField = "created" | "deleted" | "bytes_created" | "bytes_deleted";

const builders = {
  meta: (name: string) => ["meta", name] as const,
  migrations: (n: number) => ["migrations", n] as const,

  admin: () => ["admin"] as const,
  sessions: (tokenHash: string) => ["sessions", tokenHash] as const,
  sessionsByAccount: (tokenHash: string) => ["sessions_by_account", "admin", tokenHash] as const,
  sessionsByAccountPrefix: () => ["sessions_by_account", "admin"] as const,

  apiKeys: (id: string) => ["api_keys", id] as const,
  apiKeysPrefix: () => ["api_keys"] as const,
  apiKeysByHash: (hash: string) => ["api_keys_by_hash", hash] as const,
  apiKeysByName: (name: string) => ["api_keys_by_name", name] as const,
  apiKeyLastUsed: (id: string) => ["api_key_last_used", id] as const,

  rateLimits: (scope: string, subject: string) => ["rate_limits", scope, subject] as const,
  attemptSlots: (scope: string, subject: string) => ["attempt_slots", scope, subject] as const,

  pastes: (id: string) => ["pastes", id] as const,
  pastesPrefix: () => ["pastes"] as const,
  pastesBySlug: (slug: string) => ["pastes_by_slug", slug] as const,
  pastesByCreator: (createdBy: string, id: string) => ["pastes_by_creator", createdBy, id] as const,
  pastesByCreatorPrefix: (createdBy: string) => ["pastes_by_creator", createdBy] as const,
  pastesByExpiry: (expiresAtMs: number, id: string) =>
    ["pastes_by_expiry", expiresAtMs, id] as const,
  pastesByExpiryPrefix: () => ["pastes_by_expiry"] as const,
  pasteChunks: (contentId: string, n: number) => ["paste_chunks", contentId, n] as const,
  pasteChunksPrefix: (contentId: string) => ["paste_chunks", contentId] as const,
  pasteViews: (id: string) => ["paste_views", id] as const,

  /**
   * Search postings of pastes or files (share_index.ts): one row per n-gram of a share's slug,
   * file name or remark; the value is the share's creator.
   */
  shareGrams: (kind: ShareKind, gram: string, id: string) => [`${kind}_grams`, gram, id] as const,
  shareGramsPrefix: (kind: ShareKind, gram?: string) =>
    gram === undefined ? [`${kind}_grams`] as const : [`${kind}_grams`, gram] as const,
  /** A share whose postings are not written yet: its creator and texts (share_index_merge.ts). */
  shareGramsPending: (kind: ShareKind, id: string) => [`${kind}_grams_pending`, id] as const,
  shareGramsPendingPrefix: (kind: ShareKind) => [`${kind}_grams_pending`] as const,
  /**
   * Shares per creator: a `created` and a `deleted` counter, read as their difference; file
   * shares also count their bytes the same way (`bytes_created`, `bytes_deleted`).
   */
  shareCreatorTotals: (kind: ShareKind, createdBy: string, field: TotalField) =>
    [`${kind}_creator_totals`, createdBy, field] as const,
  /** The bytes of all file shares: two counters read as their difference, like the above. */
  shareBytesTotals: (kind: ShareKind, field: "created" | "deleted") =>
    [`${kind}_bytes_totals`, field] as const,
  shareBytesTotalsPrefix: (kind: ShareKind) => [`${kind}_bytes_totals`] as const,
  shareCreatorTotalsPrefix: (kind: ShareKind) => [`${kind}_creator_totals`] as const,

  storageConfigs: (id: string) => ["storage_configs", id] as const,
  storageConfigsPrefix: () => ["storage_configs"] as const,
  /** A config name, trimmed and lower-cased (see storageConfigNameKey), → the config's id. */
  storageConfigsByName: (name: string) => ["storage_configs_by_name", name] as const,
  storageDefault: () => ["meta", "storage_default"] as const,
  storageUsage: (configId: string) => ["storage_usage", configId] as const,
  filesByStorageConfigPrefix: (configId: string) => ["files_by_storage_config", configId] as const,
  mounts: (id: string) => ["mounts", id] as const,
  mountsPrefix: () => ["mounts"] as const,
  /** Moves (a new versionstamp) in the same commit as every change of a mount record. */
  mountsEpoch: () => ["meta", "mounts_epoch"] as const,
  mountsByPath: (path: string) => ["mounts_by_path", path] as const,
  mountsByStorageConfig: (configId: string, id: string) =>
    ["mounts_by_storage_config", configId, id] as const,
  mountsByStorageConfigPrefix: (configId: string) =>
    ["mounts_by_storage_config", configId] as const,

  files: (id: string) => ["files", id] as const,
  filesPrefix: () => ["files"] as const,
  filesBySlug: (slug: string) => ["files_by_slug", slug] as const,
  filesByCreator: (createdBy: string, id: string) => ["files_by_creator", createdBy, id] as const,
  filesByCreatorPrefix: (createdBy: string) => ["files_by_creator", createdBy] as const,
  filesByExpiry: (expiresAtMs: number, id: string) => ["files_by_expiry", expiresAtMs, id] as const,
  filesByExpiryPrefix: () => ["files_by_expiry"] as const,
  filesByStorageConfig: (configId: string, id: string) =>
    ["files_by_storage_config", configId, id] as const,
  fileViews: (id: string) => ["file_views", id] as const,
  /** What is left of a share the sweeper removed after its expiry, by kind and slug. */
  shareTombstones: (kind: "paste" | "file", slug: string) =>
    ["share_tombstones", kind, slug] as const,
  shareTombstonesPrefix: (kind: "paste" | "file") => ["share_tombstones", kind] as const,
  pendingUploads: (id: string) => ["pending_uploads", id] as const,
  /** A multipart upload into a mount: who started it, for which path (expires). */
  fsUploads: (uploadId: string) => ["fs_uploads", uploadId] as const,
  signingSecret: () => ["meta", "signing_secret"] as const,

  tasks: (id: string) => ["tasks", id] as const,
  tasksPrefix: () => ["tasks"] as const,
  taskLeases: (id: string) => ["task_leases", id] as const,

  /** Mount search index (see search_repo.ts): entries, n-gram postings, long names, rebuilds. */
  searchEntries: (configId: string, key: string) => ["search_entries", configId, key] as const,
  searchEntriesPrefix: (configId: string) => ["search_entries", configId] as const,
  searchGrams: (configId: string, gram: string, key: string) =>
    ["search_grams", configId, gram, key] as const,
  searchGramsPrefix: (configId: string, gram?: string) =>
    gram === undefined ? ["search_grams", configId] as const : ["search_grams", configId, gram],
  searchLong: (configId: string, key: string) => ["search_long", configId, key] as const,
  searchLongPrefix: (configId: string) => ["search_long", configId] as const,
  searchRebuilds: (configId: string) => ["search_rebuilds", configId] as const,

  /** WebDAV dead properties of one resource: its mount, its parent's storage key, its name. */
  webdavProps: (mountId: string, parent: string, name: string) =>
    ["webdav_props", mountId, parent, name] as const,
  webdavPropsPrefix: (mountId: string, parent?: string) =>
    parent === undefined ? ["webdav_props", mountId] as const : ["webdav_props", mountId, parent],
  /**
   * WebDAV locks of a mount by token, and the mount's lock epoch: it serialises new locks and
   * moves with every change of the mount's locks (webdav_lock_repo.ts).
   */
  webdavLocks: (mountId: string, token: string) => ["webdav_locks", mountId, token] as const,
  webdavLocksPrefix: (mountId: string) => ["webdav_locks", mountId] as const,
  webdavLockEpoch: (mountId: string) => ["webdav_lock_epoch", mountId] as const,

  /** Idempotency-Key results, per principal and SHA-256 of the key; chunks of large replies. */
  idempotency: (scope: string, keyHash: string) => ["idempotency", scope, keyHash] as const,
  idempotencyChunks: (scope: string, keyHash: string, n: number) =>
    ["idempotency_chunks", scope, keyHash, n] as const,

  /** One instance at a time: the expiry sweeper, the start-up jobs (lease_repo.ts). */
  leases: (name: string) => ["leases", name] as const,
  /** Counters that move when cached copies of something go stale (cache_epochs.ts). */
  cacheEpochs: (name: string) => ["cache_epochs", name] as const,
  settings: (key: string) => ["settings", key] as const,
  settingsPrefix: () => ["settings"] as const,

  /** Restore journal: the marker of a restore under way, and the old values it will put back. */
  restoreJournal: () => ["restore_journal"] as const,
  restoreUndo: (n: number) => ["restore_undo", n] as const,
  restoreUndoPrefix: () => ["restore_undo"] as const,
  /** A whole top-level prefix: a restore in overwrite mode clears every record and index. */
  entityPrefix: (name: EntityPrefix) => [name] as const,

  /** The scheduled-backup settings, and one record per run, by its slot (an ISO time). */
  backupSchedule: () => ["backup_schedule"] as const,
  backupRuns: (slot: string) => ["backup_runs", slot] as const,
  backupRunsPrefix: () => ["backup_runs"] as const,

  /** Dashboard counters: a total is `created - deleted` (KV sums cannot go negative). */
  statsTotals: (kind: string, field: "created" | "deleted") =>
    ["stats_totals", kind, field] as const,
  /** Records of `kind` created on one UTC day (`yyyy-mm-dd`). */
  statsDaily: (day: string, kind: string) => ["stats_daily", day, kind] as const,
};

/** KV's key size limit (reads allow one byte more). */
const MAX_KEY_BYTES = 2048;
const encoder = new TextEncoder();

/** The size of a key in KV's tuple encoding, counted generously. */
export function kvKeySize(key: Deno.KvKey): number {
  let size = 0;
  for (const part of key) {
    if (typeof part === "string" || part instanceof Uint8Array) {
      const bytes = typeof part === "string" ? encoder.encode(part) : part;
      size += 2 + bytes.length + bytes.filter((b) => b === 0).length; // tag, escapes, terminator
    } else size += typeof part === "bigint" ? 18 : 9;
  }
  return size;
}

type Builders = typeof builders;

/**
 * An upper bound of `kvKeySize` without encoding: a UTF-16 unit is at most 3 UTF-8 bytes, and a
 * NUL (1 byte, escaped to 2) stays under that too. Keys of every day are far below the limit,
 * so the exact size is computed only when this bound exceeds it.
 */
function kvKeySizeBound(key: Deno.KvKey): number {
  let size = 0;
  for (const part of key) {
    if (typeof part === "string") size += 2 + 3 * part.length;
    else if (part instanceof Uint8Array) size += 2 + 2 * part.length;
    else size += typeof part === "bigint" ? 18 : 9;
  }
  return size;
}

/** Wraps every builder so that a key too large for KV throws 400 `value_too_long`. */
function checkedBuilders(all: Builders): Builders {
  const out: Record<string, unknown> = {};
  for (const [name, build] of Object.entries(all)) {
    out[name] = (...args: never[]) => {
      const key = (build as (...a: never[]) => Deno.KvKey)(...args);
      if (kvKeySizeBound(key) > MAX_KEY_BYTES && kvKeySize(key) > MAX_KEY_BYTES) {
        throw new AppError("value_too_long", 400);
      }
      return key;
    };
  }
  return out as Builders;
}

export const keys = checkedBuilders(builders);
