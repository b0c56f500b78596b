/** The repositories a backup export and a restore read and write. */
import { PasteRepo } from "../shares/paste_repo.ts";
import { FileRepo } from "../shares/file_repo.ts";
import { MountRepo } from "../kv/mount_repo.ts";
import { StorageConfigRepo } from "../kv/storage_config_repo.ts";
import { ApiKeyRepo } from "../kv/api_key_repo.ts";
import { AccountRepo } from "../kv/account_repo.ts";
import { BackupRepo } from "./backup_repo.ts";

/** The repositories a restore reads and writes. */
export type RestoreRepos = {
  pastes: PasteRepo;
  files: FileRepo;
  mounts: MountRepo;
  storage: StorageConfigRepo;
  apiKeys: ApiKeyRepo;
  accounts: AccountRepo;
  backup: BackupRepo;
};

/** Every repository of a restore, each on `kv` (a script's or a scratch KV of its own). */
export function restoreReposOn(kv: Deno.Kv): RestoreRepos {
  return {
    pastes: new PasteRepo(kv),
    files: new FileRepo(kv),
    mounts: new MountRepo(kv),
    storage: new StorageConfigRepo(kv),
    apiKeys: new ApiKeyRepo(kv),
    accounts: new AccountRepo(kv),
    backup: new BackupRepo(kv),
  };
}
