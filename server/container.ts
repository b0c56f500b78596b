/**
 * The container: builds every service from the config and the KV handle, the one place they are
 * wired. The KV handle itself stays here; routes and jobs reach the data through services.
 */
import type { Config } from "./config.ts";
import { AccountRepo } from "./kv/account_repo.ts";
import { ApiKeyRepo } from "./kv/api_key_repo.ts";
import { RateLimiter } from "./kv/rate_limit_repo.ts";
import { SlowdownLimiter } from "./kv/slowdown_repo.ts";
import { DeviceTokens } from "./services/device_tokens.ts";
import { AttemptGuard } from "./services/attempts.ts";
import { KdfGate } from "./services/kdf_gate.ts";
import { PasteRepo } from "./shares/paste_repo.ts";
import { ViewTally } from "./shares/view_tally.ts";
import { ApiKeyService } from "./services/api_keys.ts";
import { AuthService } from "./services/auth.ts";
import { SettingsService } from "./services/settings.ts";
import { SettingsRepo } from "./kv/settings_repo.ts";
import { PasteService } from "./shares/pastes.ts";
import { StorageConfigRepo } from "./kv/storage_config_repo.ts";
import { FileRepo } from "./shares/file_repo.ts";
import { checkSealingKey, SecretBox } from "./services/secret_box.ts";
import { checkDataFormat } from "./kv/data_format.ts";
import { LeaseRepo } from "./kv/lease_repo.ts";
import { APP_VERSION } from "../shared/constants.ts";
import { fileFunnel, pasteFunnel } from "./shares/access_funnel.ts";
import { loadSigningSecret, Signer } from "./shares/view_tokens.ts";
import { StorageConfigService } from "./services/storage_configs.ts";
import { migrateShareObjects } from "./shares/share_objects_migration.ts";
import { FileService } from "./shares/files.ts";
import { FileAccessService } from "./shares/file_access.ts";
import { MultipartUploadService } from "./shares/multipart_uploads.ts";
import { StatsRepo } from "./kv/stats_repo.ts";
import { StatsService } from "./services/stats.ts";
import { createCaches } from "./services/caches.ts";
import { MountRepo } from "./kv/mount_repo.ts";
import { MountService } from "./services/mounts.ts";
import { FsService } from "./fs/fs.ts";
import type { SearchHooks } from "./search/search_types.ts";
import { DirectoryCache } from "./fs/directory_cache.ts";
import { FsUploadRepo } from "./fs/fs_upload_repo.ts";
import { FsUploadService } from "./fs/fs_uploads.ts";
import { ProxyLinkService } from "./fs/proxy_links.ts";
import { TaskRepo } from "./fs/task_repo.ts";
import { TaskService } from "./fs/tasks.ts";
import { SearchRepo } from "./search/search_repo.ts";
import { SearchService } from "./search/search.ts";
import { BackupRepo } from "./backup/backup_repo.ts";
import { BackupService } from "./backup/backup.ts";
import { BackupScheduleRepo } from "./backup/backup_schedule_repo.ts";
import { ScheduledBackups, scratchDirOf } from "./backup/scheduled_backups.ts";
import { IdempotencyRepo } from "./kv/idempotency_repo.ts";
import { IdempotencyService } from "./services/idempotency.ts";
import { CacheEpochs } from "./kv/cache_epochs.ts";
import { WebdavService } from "./webdav/webdav.ts";
import { WebdavPropRepo } from "./webdav/webdav_prop_repo.ts";
import { WebdavLockRepo } from "./webdav/webdav_lock_repo.ts";

export type Services = Awaited<ReturnType<typeof createServices>>;

/**
 * Wires repositories and services together, after checking that this instance may run on the
 * KV (its data format and its sealing key; both throw with the reason), then runs the start-up
 * jobs (default storage, migrations) on one instance at a time.
 */
export async function createServices(config: Config, kv: Deno.Kv, log: (msg: string) => void) {
  await checkDataFormat(kv, APP_VERSION);
  const limiter = new RateLimiter(kv, config.rateLimits);
  const attempts = new AttemptGuard(
    new SlowdownLimiter(kv, config.rateLimits),
    limiter,
    new KdfGate(config.kdfConcurrency, config.kdfQueue),
  );
  const apiKeys = new ApiKeyService(new ApiKeyRepo(kv));
  const signingSecret = await loadSigningSecret(kv);
  const devices = new DeviceTokens(signingSecret);
  const auth = new AuthService(config, new AccountRepo(kv), apiKeys, attempts, devices, log);
  const epochs = new CacheEpochs(kv, log);
  const settings = new SettingsService(new SettingsRepo(kv, epochs));
  const box = await SecretBox.open(config);
  const storageConfigRepo = new StorageConfigRepo(kv);
  await checkSealingKey(kv, box, async () => {
    const sealed = (await storageConfigRepo.list()).find((c) => c.secret_access_key_enc);
    return sealed?.secret_access_key_enc ?? null;
  });
  const signer = await Signer.fromSecret(signingSecret);
  // Views of unlimited shares, written every config.viewFlushMs; close() it before the KV.
  const viewTally = new ViewTally(kv, config.viewFlushMs, log);
  const pasteRepo = new PasteRepo(kv, viewTally);
  const pastes = new PasteService(pasteRepo, attempts, config, pasteFunnel(pasteRepo, signer));
  const storageConfigs = new StorageConfigService(config, storageConfigRepo, box, signingSecret);
  const caches = createCaches(epochs);
  const stats = new StatsService(new StatsRepo(kv), storageConfigRepo, caches.registry);
  const fileRepo = new FileRepo(kv, viewTally);
  const files = new FileService(fileRepo, storageConfigs, settings, config.kdfIterations);
  await underStartLease(kv, async () => {
    await storageConfigs.ensureDefault(log);
    if (await stats.migrate()) {
      log("Migration 1 applied: dashboard counters set from existing data");
    }
    await migrateShareObjects(kv, fileRepo, storageConfigs, log);
  });
  const fileAccess = new FileAccessService(
    fileRepo,
    storageConfigs,
    attempts,
    fileFunnel(fileRepo, signer),
    caches.s3Url,
  );
  const multipartUploads = new MultipartUploadService(files);
  const mounts = new MountService(new MountRepo(kv), storageConfigs);
  const search = new SearchService(
    new SearchRepo(kv),
    mounts,
    storageConfigs,
    caches.search,
    epochs,
    log,
  );
  const fs = new FsService(
    mounts,
    storageConfigs,
    files,
    search,
    () => settings.getMaxUploadBytes(),
  );
  fs.setDirectoryCache(new DirectoryCache(caches.directory, epochs, log));
  const fsUploads = new FsUploadService(fs, mounts, storageConfigs, new FsUploadRepo(kv));
  const proxyLinks = new ProxyLinkService(mounts, fs, settings, signer);
  // Files written by copy tasks go to the search index and clear cached listings.
  const taskWrites: SearchHooks = {
    pathWritten: async (target, info) => {
      await fs.invalidateListings(target);
      await search.pathWritten(target, info);
    },
    pathRemoved: (target) => search.pathRemoved(target),
  };
  const tasks = new TaskService(new TaskRepo(kv), mounts, storageConfigs, apiKeys, taskWrites, {
    fs,
    allowLoopbackFetch: config.allowLoopbackFetch,
    maxUploadBytes: () => settings.getMaxUploadBytes(),
  });
  const backup = new BackupService({
    pastes: pasteRepo,
    files: fileRepo,
    mounts: new MountRepo(kv),
    storage: storageConfigRepo,
    apiKeys: new ApiKeyRepo(kv),
    accounts: new AccountRepo(kv),
    backup: new BackupRepo(kv),
    box,
    kdfIterations: config.kdfIterations,
    log,
    afterRestore: async () => {
      settings.invalidate();
      await epochs.bump("settings");
      await caches.clearAll();
      await stats.recount();
      await migrateShareObjects(kv, fileRepo, storageConfigs, log, { evenIfRecorded: true });
    },
  });
  const scheduledBackups = new ScheduledBackups({
    repo: new BackupScheduleRepo(kv),
    backup,
    storage: storageConfigs,
    box,
    kdfIterations: config.kdfIterations,
    scratchDir: scratchDirOf(config.dataDir),
    log,
  });
  const idempotency = new IdempotencyService(new IdempotencyRepo(kv), box);
  const webdav = new WebdavService(
    fs,
    mounts,
    settings,
    new WebdavPropRepo(kv),
    new WebdavLockRepo(kv),
  );
  return {
    config,
    /** One KV read, so that /api/health answers only while the KV does. */
    checkKv: async (): Promise<void> => {
      await kv.get(["meta", "health"]);
    },
    /** Named leases (the sweeper's), so one instance at a time runs a periodic job. */
    leases: new LeaseRepo(kv),
    /**
     * Follows what other instances sharing the KV change in cached state (settings, cache
     * clears) until `stopFollowing()`, which must come before the KV closes.
     */
    followOtherInstances(): void {
      settings.followWrites(epochs);
      caches.followClears();
    },
    stopFollowing: () => epochs.stopFollowing(),
    idempotency,
    limiter,
    attempts,
    apiKeys,
    auth,
    settings,
    pastes,
    signer,
    storageConfigs,
    files,
    fileAccess,
    multipartUploads,
    mounts,
    fs,
    fsUploads,
    proxyLinks,
    webdav,
    tasks,
    search,
    caches,
    stats,
    backup,
    scheduledBackups,
    viewTally,
  };
}

/** How long the start-up jobs may hold their lease before another instance may take over. */
const START_LEASE_MS = 5 * 60_000;

/**
 * Runs the start-up jobs on one instance at a time, so instances started together on one KV run
 * each migration once. Those that wait run the jobs after the holder, when they find them done
 * (every job checks that first), or instead of it if it died (its lease lapses).
 */
async function underStartLease(kv: Deno.Kv, jobs: () => Promise<void>): Promise<void> {
  const leases = new LeaseRepo(kv);
  const owner = crypto.randomUUID();
  while (!await leases.acquire("startup", owner, START_LEASE_MS)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    await jobs();
  } finally {
    await leases.release("startup", owner);
  }
}
