/** Builds every service from the config and the KV handle: the one place services are wired. */
import type { Config } from "../config.ts";
import { AccountRepo } from "../kv/account_repo.ts";
import { ApiKeyRepo } from "../kv/api_key_repo.ts";
import { RateLimiter } from "../kv/rate_limit_repo.ts";
import { PasteRepo } from "../kv/paste_repo.ts";
import { ApiKeyService } from "./api_keys.ts";
import { AuthService } from "./auth.ts";
import { SiteService } from "./site.ts";
import { PasteService } from "./pastes.ts";
import { StorageConfigRepo } from "../kv/storage_config_repo.ts";
import { FileRepo } from "../kv/file_repo.ts";
import { SecretBox } from "./secret_box.ts";
import { loadSigningSecret, Signer } from "./view_tokens.ts";
import { StorageConfigService } from "./storage_configs.ts";
import { FileService } from "./files.ts";
import { FileAccessService } from "./file_access.ts";
import { MultipartUploadService } from "./multipart_uploads.ts";
import { MountRepo } from "../kv/mount_repo.ts";
import { MountService } from "./mounts.ts";

export type Services = Awaited<ReturnType<typeof createServices>>;

/** Wires repositories and services together. */
export async function createServices(config: Config, kv: Deno.Kv, log: (msg: string) => void) {
  const limiter = new RateLimiter(kv);
  const apiKeys = new ApiKeyService(new ApiKeyRepo(kv));
  const auth = new AuthService(config, new AccountRepo(kv), apiKeys, limiter, log);
  const site = new SiteService(kv);
  const pastes = new PasteService(new PasteRepo(kv), limiter, config);
  const box = await SecretBox.open(config);
  const signingSecret = await loadSigningSecret(kv);
  const signer = await Signer.fromSecret(signingSecret);
  const storageConfigs = new StorageConfigService(
    config,
    new StorageConfigRepo(kv),
    box,
    signingSecret,
  );
  await storageConfigs.ensureDefault();
  const fileRepo = new FileRepo(kv);
  const files = new FileService(fileRepo, storageConfigs, site, config.kdfIterations);
  const fileAccess = new FileAccessService(fileRepo, storageConfigs, limiter, signer);
  const multipartUploads = new MultipartUploadService(files);
  const mounts = new MountService(new MountRepo(kv), storageConfigs);
  return {
    config,
    kv,
    limiter,
    apiKeys,
    auth,
    site,
    pastes,
    signer,
    storageConfigs,
    files,
    fileAccess,
    multipartUploads,
    mounts,
  };
}
