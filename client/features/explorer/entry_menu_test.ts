import assert from "node:assert/strict";
import type { TFunction } from "i18next";
import { type EntryCommands, entryMenu } from "./entry_menu.ts";
import type { FsEntry } from "./explorer_api.ts";
import { ALL_PERMISSIONS, Permission } from "../../../shared/permissions.ts";

const t = ((key: string) => key) as unknown as TFunction;
const noop = () => {};
const run: EntryCommands = {
  open: noop,
  download: noop,
  basket: noop,
  copyLink: noop,
  share: noop,
  rename: noop,
  copy: noop,
  remove: noop,
};
const file: FsEntry = {
  name: "a.txt",
  path: "/m/a.txt",
  type: "file",
  size: 1,
  modified: null,
  mimetype: "text/plain",
};
const folder: FsEntry = { ...file, name: "d", path: "/m/d", type: "directory" };
const mount: FsEntry = { ...folder, path: "/m", name: "m", mount_id: "x" };
const ids = (entry: FsEntry, perms: number, virtual = false) =>
  entryMenu(t, entry, perms, virtual, run).map((i) => i.id);

Deno.test("entry menu: what each mount bit allows", () => {
  assert.deepEqual(ids(file, ALL_PERMISSIONS), [
    "open",
    "download",
    "basket",
    "link",
    "share",
    "rename",
    "copy",
    "delete",
  ]);
  assert.deepEqual(ids(file, Permission.MOUNT_VIEW), ["open", "download", "basket", "link"]);
  assert.deepEqual(
    ids(folder, Permission.MOUNT_VIEW | Permission.MOUNT_DELETE),
    ["open", "basket", "delete"],
  );
});

Deno.test("entry menu: mounts themselves and the virtual levels cannot be changed", () => {
  assert.deepEqual(ids(mount, ALL_PERMISSIONS, true), ["open"]);
  assert.deepEqual(ids(mount, ALL_PERMISSIONS, false), ["open", "basket"]);
});
