/**
 * The context menu of one entry: what can be done with it, given the caller's mount bits and
 * where it is (the folders that are mounts themselves cannot be renamed, copied or deleted).
 */
import type { TFunction } from "i18next";
import { hasPermission, Permission } from "../../../shared/permissions.ts";
import type { FsEntry } from "./explorer_api.ts";
import type { MenuItem } from "./ContextMenu.tsx";

export type EntryCommands = {
  open: (e: FsEntry) => void;
  download: (e: FsEntry) => void;
  basket: (e: FsEntry[]) => void;
  copyLink: (e: FsEntry) => void;
  share: (e: FsEntry) => void;
  rename: (e: FsEntry) => void;
  copy: (e: FsEntry[]) => void;
  remove: (e: FsEntry[]) => void;
};

/** The menu items for `entry`; `virtual` is true above the mounts. */
export function entryMenu(
  t: TFunction,
  entry: FsEntry,
  perms: number,
  virtual: boolean,
  run: EntryCommands,
): MenuItem[] {
  const file = entry.type === "file";
  const fixed = virtual || Boolean(entry.mount_id);
  const can = (bit: number) => hasPermission(perms, bit);
  const items: (MenuItem | false)[] = [
    {
      id: "open",
      label: t(file ? "explorer.action.preview" : "explorer.action.open"),
      onSelect: () => run.open(entry),
    },
    file &&
    { id: "download", label: t("explorer.action.download"), onSelect: () => run.download(entry) },
    !virtual &&
    { id: "basket", label: t("explorer.action.basket"), onSelect: () => run.basket([entry]) },
    file && { id: "link", label: t("explorer.action.link"), onSelect: () => run.copyLink(entry) },
    file && can(Permission.FILE_SHARE) &&
    { id: "share", label: t("explorer.action.share"), onSelect: () => run.share(entry) },
    !fixed && can(Permission.MOUNT_RENAME) &&
    { id: "rename", label: t("explorer.action.rename"), onSelect: () => run.rename(entry) },
    !fixed && can(Permission.MOUNT_COPY) &&
    { id: "copy", label: t("explorer.action.copy"), onSelect: () => run.copy([entry]) },
    !fixed && can(Permission.MOUNT_DELETE) &&
    {
      id: "delete",
      label: t("explorer.action.delete"),
      danger: true,
      onSelect: () => run.remove([entry]),
    },
  ];
  return items.filter((i): i is MenuItem => i !== false);
}
