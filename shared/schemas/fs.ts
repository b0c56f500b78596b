/** What the mount explorer's API returns (docs/PRODUCT.md §7.8): entries and folder pages. */

/** One file or folder as the explorer shows it. */
export type FsEntry = {
  name: string;
  path: string;
  type: "file" | "directory";
  size: number;
  modified: string | null;
  mimetype: string | null;
  /** Set on the folders that are mounts themselves. */
  mount_id?: string;
  /** The stored object's ETag (files). */
  etag?: string;
};

/** One page of a folder; follow `cursor` for the next. */
export type FsPage = {
  path: string;
  items: FsEntry[];
  cursor: string | null;
  /** True for the folders above the mounts, which only mount paths make. */
  is_virtual: boolean;
  mount_id?: string;
};
