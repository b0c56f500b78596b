import assert from "node:assert/strict";
import {
  allows,
  firstAllowedPath,
  loginPathFor,
  safeRedirect,
  visibleModules,
} from "./admin_modules.ts";
import { ALL_PERMISSIONS, Permission } from "../../shared/permissions.ts";

const admin = { authType: "admin" as const, permissions: ALL_PERMISSIONS };
const key = (permissions: number) => ({ authType: "apikey" as const, permissions });
const none = { authType: "none" as const, permissions: 0 };

Deno.test("landing: admin → dashboard; keys → text, file, mount, then account", () => {
  const cases: [Parameters<typeof firstAllowedPath>[0], string][] = [
    [admin, "/admin/dashboard"],
    [key(Permission.TEXT | Permission.FILE_SHARE), "/admin/text-management"],
    [key(Permission.FILE_SHARE | Permission.MOUNT_VIEW), "/admin/file-management"],
    [key(Permission.MOUNT_DELETE), "/admin/mount-management"],
    [key(Permission.WEBDAV_READ), "/admin/account"],
    [key(0), "/admin/account"],
    [none, "/admin/login"],
  ];
  for (const [auth, path] of cases) {
    assert.equal(firstAllowedPath(auth), path, JSON.stringify(auth));
  }
});

Deno.test("admin-only modules are hidden from every key; account is open to all", () => {
  const ids = visibleModules(key(ALL_PERMISSIONS)).map((m) => m.id);
  assert.deepEqual(ids, ["textManagement", "fileManagement", "mountManagement", "account"]);
  assert.equal(visibleModules(admin).length, 12);
  assert.deepEqual(visibleModules(none), []);
  assert.ok(allows(key(0), { kind: "loggedIn" }));
  assert.ok(!allows(key(ALL_PERMISSIONS), { kind: "admin" }));
  assert.ok(!allows(key(Permission.TEXT), { kind: "bits", bits: Permission.TEXT | 2 }));
});

Deno.test("redirects after login stay on this site and never loop to the login page", () => {
  assert.equal(safeRedirect("/admin/backup?x=1"), "/admin/backup?x=1");
  for (
    const bad of [null, "", "https://evil.example", "//evil.example", "/\\evil", "/admin/login"]
  ) {
    assert.equal(safeRedirect(bad), null, String(bad));
  }
  assert.equal(
    loginPathFor("/admin/key-management?a=b"),
    "/admin/login?redirect=%2Fadmin%2Fkey-management%3Fa%3Db",
  );
  assert.equal(loginPathFor("/admin/login?redirect=x"), "/admin/login");
});
