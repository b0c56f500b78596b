import assert from "node:assert/strict";
import {
  ALL_PERMISSIONS,
  hasMountAccess,
  hasPermission,
  isPathWithinBase,
  maskToPermissions,
  normalizePath,
  Permission,
  permissionsToMask,
} from "./permissions.ts";

Deno.test("permission objects convert to the bitmask of docs/PRODUCT.md §6.2 and back", () => {
  assert.equal(permissionsToMask({ text: true }), 1);
  assert.equal(permissionsToMask({ file: true }), 2);
  assert.equal(permissionsToMask({ mount_view: true, mount_delete: true }), 256 | 4096);
  assert.equal(permissionsToMask({ webdav_read: true, webdav_manage: true }), 65536 | 131072);
  assert.equal(permissionsToMask({}), 0);
  const all = maskToPermissions(ALL_PERMISSIONS);
  assert.ok(Object.values(all).every(Boolean));
  assert.equal(permissionsToMask(all), ALL_PERMISSIONS);
  assert.deepEqual(maskToPermissions(Permission.TEXT | Permission.MOUNT_COPY), {
    text: true,
    file: false,
    mount_view: false,
    mount_upload: false,
    mount_copy: true,
    mount_rename: false,
    mount_delete: false,
    webdav_read: false,
    webdav_manage: false,
  });
});

Deno.test("hasPermission needs every bit; mount access means any mount bit", () => {
  assert.ok(hasPermission(3, Permission.TEXT));
  assert.ok(!hasPermission(Permission.TEXT, Permission.TEXT | Permission.FILE_SHARE));
  assert.ok(hasMountAccess(Permission.MOUNT_RENAME));
  assert.ok(!hasMountAccess(Permission.TEXT | Permission.WEBDAV_READ));
});

Deno.test("normalizePath collapses slashes and refuses traversal, backslashes and NUL", () => {
  const cases: [string, string | null][] = [
    ["/", "/"],
    ["", "/"],
    ["/a//b/", "/a/b"],
    ["a/b", "/a/b"],
    ["/a/../b", null],
    ["/a/./b", null],
    ["/..", null],
    ["/a\\b", null],
    ["/a\0b", null],
  ];
  for (const [input, expected] of cases) assert.equal(normalizePath(input), expected, input);
});

Deno.test("isPathWithinBase respects separators", () => {
  const cases: [string, string, boolean][] = [
    ["/a", "/a", true],
    ["/a/b/c", "/a", true],
    ["/ab", "/a", false],
    ["/a", "/a/b", false],
    ["/anything", "/", true],
    ["/a/../b", "/a", false],
    ["/a//b", "/a/", true],
    ["/a\\..\\b", "/a", false],
  ];
  for (const [path, base, expected] of cases) {
    assert.equal(isPathWithinBase(path, base), expected, `${path} in ${base}`);
  }
});
