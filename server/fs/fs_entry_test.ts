import assert from "node:assert/strict";
import { join } from "node:path";
import {
  checkName,
  fileEntry,
  folderEntry,
  isFolder,
  joinPath,
  lookup,
  pageEntries,
  virtualChildren,
} from "./fs_entry.ts";
import { AppError } from "../errors.ts";
import { LocalDriver } from "../storage/local.ts";
import type { StorageDriver } from "../storage/driver.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";
import type { Resolved } from "../services/mounts.ts";
import { tempDir } from "../../tests/helpers/temp.ts";
import { mountRecord } from "../../tests/helpers/records.ts";

function mount(id: string, mount_path: string, is_active = true): MountView {
  return mountRecord(id, mount_path, { is_active, updated_at: "2026-02-01T00:00:00.000Z" });
}

const at = (key: string): Resolved => ({ mount: mount("m", "/m"), key, path: `/m/${key}` });

function localDriver(dir: string): LocalDriver {
  return new LocalDriver({
    root: join(dir, "store"),
    signingSecret: "s",
    configId: "cfg",
    urlPrefix: "/api/storage/local",
    fsync: false,
  });
}

/** The local driver without its `lookup`, answering as a store without one (S3) must. */
function withoutLookup(driver: StorageDriver): StorageDriver {
  return new Proxy(driver, {
    get: (target, prop) => {
      if (prop === "lookup") return undefined;
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

Deno.test("checkName trims and refuses separators, dot names, NUL and over 255 bytes", () => {
  assert.equal(checkName("  a b.txt "), "a b.txt");
  for (const bad of ["", "  ", ".", "..", "a/b", "a\\b", "a\0b"]) {
    assert.throws(
      () => checkName(bad),
      (e) => e instanceof AppError && e.code === "storage_path_invalid",
      bad,
    );
  }
  assert.equal(checkName("é".repeat(127)), "é".repeat(127));
  assert.throws(
    () => checkName("é".repeat(128)),
    (e) => e instanceof AppError && e.code === "name_too_long",
  );
});

Deno.test("entries: joins at the root, folder and file entries, page entries", () => {
  assert.equal(joinPath("/", "a"), "/a");
  assert.equal(joinPath("/a", "b"), "/a/b");
  assert.deepEqual(folderEntry("/m/x", null, "m1"), {
    name: "x",
    path: "/m/x",
    type: "directory",
    size: 0,
    modified: null,
    mimetype: null,
    mount_id: "m1",
  });
  assert.equal("mount_id" in folderEntry("/m/x"), false);
  const when = new Date("2026-03-01T00:00:00Z");
  const file = fileEntry("/m/notes.md", { size: 3, etag: "e", lastModified: when });
  assert.equal(file.mimetype, "text/markdown");
  assert.equal(file.modified, when.toISOString());
  const page = {
    prefixes: ["docs/sub/"],
    items: [{ key: "docs/a.txt", size: 1, etag: "e", lastModified: when }],
    cursor: null,
  };
  assert.deepEqual(pageEntries(page, "docs/", "/m/docs").map((e) => [e.path, e.type]), [
    ["/m/docs/sub", "directory"],
    ["/m/docs/a.txt", "file"],
  ]);
});

Deno.test("virtual folders above mounts; null inside a mount; inactive mounts hidden", () => {
  const mounts = [
    mount("a", "/data/photos"),
    mount("b", "/data/docs"),
    mount("c", "/top"),
    mount("d", "/off", false),
  ];
  assert.deepEqual(virtualChildren(mounts, "/")?.map((e) => [e.path, e.mount_id]), [
    ["/data", undefined],
    ["/top", "c"],
  ]);
  assert.deepEqual(virtualChildren(mounts, "/data")?.map((e) => [e.path, e.mount_id, e.modified]), [
    ["/data/photos", "a", "2026-02-01T00:00:00.000Z"],
    ["/data/docs", "b", "2026-02-01T00:00:00.000Z"],
  ]);
  assert.equal(virtualChildren(mounts, "/top"), null, "inside a mount");
  assert.equal(virtualChildren(mounts, "/off"), null, "an inactive mount makes no folder");
  assert.deepEqual(virtualChildren([], "/"), [], "the root is a folder even with no mount");
});

for (
  const [label, wrap] of [["with lookup", (d: StorageDriver) => d], [
    "listing only",
    withoutLookup,
  ]] as const
) {
  Deno.test(`lookup and isFolder (${label}): objects, full and empty folders, nothing`, async () => {
    await using dir = await tempDir("cubby-fs-entry-");
    const local = localDriver(dir.path);
    const driver = wrap(local);
    await local.put("docs/a.txt", "abc");
    await local.createFolder("empty");
    const obj = await lookup(driver, at("docs/a.txt"));
    assert.ok(obj && obj !== "folder" && obj.size === 3);
    assert.equal(await lookup(driver, at("docs")), "folder");
    assert.equal(await lookup(driver, at("empty")), "folder");
    assert.equal(await lookup(driver, at("")), "folder", "the mount root");
    assert.equal(await lookup(driver, at("none")), null);
    assert.equal(await isFolder(driver, at("docs")), true);
    assert.equal(await isFolder(driver, at("empty")), true);
    assert.equal(await isFolder(driver, at("docs/a.txt")), false);
    assert.equal(await isFolder(driver, at("doc")), false, "a prefix of a folder's name is not it");
  });
}
