import assert from "node:assert/strict";
import { ApiError } from "../../api/client.ts";
import { splitRefusal } from "../../api/field_errors.ts";
import { createI18n } from "../../i18n/mod.ts";
import {
  editMountForm,
  MOUNT_PATH_RULE,
  MOUNT_REFUSALS,
  mountPathError,
  newMountForm,
  toMountBody,
  validateMountForm,
} from "./mount_form.ts";
import { MOUNT_PATH_PATTERN } from "../../../shared/schemas/mounts.ts";
import type { MountView } from "./mounts_api.ts";

Deno.test("mount form: the browser's path rule is the server schema's", () => {
  assert.equal(MOUNT_PATH_RULE.source, MOUNT_PATH_PATTERN.source);
  assert.equal(MOUNT_PATH_RULE.flags, MOUNT_PATH_PATTERN.flags);
});

Deno.test("mount form: path rules of docs/PRODUCT.md §5.1", () => {
  assert.equal(mountPathError(""), "pathRequired");
  assert.equal(mountPathError("docs"), "pathSlash");
  assert.equal(mountPathError("/"), "pathRoot");
  assert.equal(mountPathError("/a b"), "pathChars");
  assert.equal(mountPathError("/a.b"), "pathChars");
  assert.equal(mountPathError("/api"), "pathReserved");
  assert.equal(mountPathError("/Admin/x"), "pathReserved");
  assert.equal(mountPathError("/apis"), null);
  assert.equal(mountPathError("/文档/team_a-1"), null);
});

Deno.test("mount form: name, TTL, sort order and config checks", () => {
  const v = { ...newMountForm(), mount_path: "/docs", storage_config_id: "c1" };
  assert.deepEqual(validateMountForm({ ...v, name: "Docs" }), {});
  assert.equal(validateMountForm(v).name, "nameRequired");
  assert.equal(validateMountForm({ ...v, name: "x".repeat(51) }).name, "nameTooLong");
  assert.equal(validateMountForm({ ...v, name: "名".repeat(50) }).name, undefined);
  const named = { ...v, name: "Docs" };
  assert.equal(validateMountForm({ ...named, cache_ttl: "-1" }).cache_ttl, "ttlInvalid");
  assert.equal(validateMountForm({ ...named, cache_ttl: "86401" }).cache_ttl, "ttlInvalid");
  assert.equal(validateMountForm({ ...named, cache_ttl: "1.5" }).cache_ttl, "ttlInvalid");
  assert.equal(validateMountForm({ ...named, cache_ttl: "86400" }).cache_ttl, undefined);
  assert.equal(validateMountForm({ ...named, cache_ttl: "0" }).cache_ttl, undefined);
  assert.equal(validateMountForm({ ...named, sort_order: "x" }).sort_order, "sortInvalid");
  assert.equal(validateMountForm({ ...named, sort_order: "-3" }).sort_order, undefined);
  assert.equal(
    validateMountForm({ ...named, storage_config_id: "" }).storage_config_id,
    "configRequired",
  );
});

Deno.test("mount form: bodies, and an empty TTL keeps the server's default", () => {
  const body = toMountBody({
    ...newMountForm(),
    name: " Docs ",
    mount_path: "/docs",
    storage_config_id: "c1",
    sort_order: "2",
  });
  assert.equal(body.name, "Docs");
  assert.equal(body.sort_order, 2);
  assert.equal("cache_ttl" in body, false);
  const view: MountView = {
    id: "m1",
    name: "Docs",
    mount_path: "/docs",
    storage_type: "s3",
    storage_config_id: "c2",
    remark: "r",
    sort_order: 1,
    cache_ttl: 60,
    is_active: false,
    web_proxy: true,
    enable_sign: true,
    sign_expires: 3600,
    webdav_policy: "native_proxy",
    created_by: "admin",
    created_at: "",
    updated_at: "",
  };
  const again = toMountBody(editMountForm(view));
  assert.equal(again.cache_ttl, 60);
  assert.equal(again.is_active, false);
  assert.equal(again.webdav_policy, "native_proxy");
});

Deno.test("mount form: server errors point at their field", () => {
  const t = createI18n("en-US").t;
  const refusal = (code: string, data: unknown) =>
    splitRefusal(t, new ApiError(code, 400, "server text", data), MOUNT_REFUSALS);
  assert.deepEqual(refusal("mount_path_taken", null).fields, {
    mount_path: "This mount path is taken or overlaps another mount",
  });
  assert.ok(refusal("mount_storage_mismatch", null).fields.storage_config_id);
  assert.deepEqual(refusal("validation_failed", { fields: { sign_expires: "x" } }), {
    fields: { sign_expires: "This value is not valid" },
    form: null,
  });
  assert.deepEqual(refusal("validation_failed", { fields: { other: "x" } }), {
    fields: {},
    form: "Invalid request",
  });
});
