/** The types of mount search and of the index hooks that writers call (search.ts). */
import type { FsEntry } from "../../shared/schemas/fs.ts";

/** Where a search looks: everywhere, one mount, or one folder. */
export type SearchScope = "global" | "mount" | "directory";
/** A search request. */
export type SearchInput = {
  q: string;
  scope: SearchScope;
  mountId?: string;
  path?: string;
  limit: number;
  offset: number;
};
/** One match. */
export type SearchItem = Omit<FsEntry, "mount_id" | "etag"> & { mount_id: string };
/** One page of matches. */
export type SearchResult = { items: SearchItem[]; total: number; limit: number; offset: number };

/** What a write hook needs: the mount written to and the storage key below it. */
export type IndexTarget = { mount: { storage_config_id: string }; key: string };
/** What FsService knows of a written file or folder (saves a HEAD). */
export type WrittenInfo = { type: "file" | "directory"; size?: number; modified?: string | null };

/**
 * The index hooks FsService and TaskService call after each write. They never throw, and they
 * move the config's cache epoch (kv/cache_epochs.ts) before they resolve, also when the index
 * update fails: FsService leaves that move to them.
 */
export interface SearchHooks {
  pathWritten(target: IndexTarget, info?: WrittenInfo): Promise<void>;
  pathRemoved(target: IndexTarget): Promise<void>;
}
