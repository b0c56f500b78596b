/** The repositories a backup export and a restore read and write. */
import type { PasteRepo } from "../shares/paste_repo.ts";
import type { FileRepo } from "../shares/file_repo.ts";
import type { MountRepo } from "../kv/mount_repo.ts";
import type { StorageConfigRepo } from "../kv/storage_config_repo.ts";
import type { ApiKeyRepo } from "../kv/api_key_repo.ts";
import type { AccountRepo } from "../kv/account_repo.ts";
import type { BackupRepo } from "./backup_repo.ts";

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
