import assert from "node:assert/strict";
import {
  editStorageForm,
  newStorageForm,
  quotaBytes,
  splitQuota,
  STORAGE_REFUSALS,
  toCreateBody,
  toUpdateBody,
  validateStorageForm,
} from "./storage_form.ts";
import type { StorageConfigView } from "./storage_api.ts";

const view: StorageConfigView = {
  id: "c1",
  name: "Bucket",
  provider_type: "minio",
  storage_type: "s3",
  endpoint_url: "http://127.0.0.1:9000",
  bucket_name: "files",
  region: "us-east-1",
  access_key_id_masked: "AKIA••••••••",
  has_secret: true,
  path_style: true,
  default_folder: "cubby",
  is_public: false,
  is_default: false,
  custom_host: "",
  signature_expires_in: 3600,
  total_storage_bytes: 1.5 * 1024 ** 3,
  root_dir: null,
  used_bytes: 0,
  single_host_warning: false,
  created_at: "",
  updated_at: "",
};

Deno.test("S3 kinds need a bucket, keys on create, and an endpoint unless AWS", () => {
  const v = { ...newStorageForm("r2"), name: "R2" };
  assert.deepEqual(Object.keys(validateStorageForm(v, "create")).sort(), [
    "access_key_id",
    "bucket_name",
    "endpoint_url",
    "secret_access_key",
  ]);
  const aws = { ...newStorageForm("aws"), name: "S3", bucket_name: "b" };
  assert.deepEqual(Object.keys(validateStorageForm(aws, "edit")), []);
  assert.equal(
    validateStorageForm({ ...aws, signature_expires_in: "10" }, "edit")
      .signature_expires_in,
    "signature",
  );
  assert.equal(
    validateStorageForm({ ...aws, endpoint_url: "ftp://x" }, "edit").endpoint_url,
    "url",
  );
  const local = { ...newStorageForm("local"), name: "Disk", root_dir: "relative" };
  assert.deepEqual(validateStorageForm(local, "create"), { root_dir: "absolutePath" });
});

Deno.test("quota units round-trip; empty means no quota", () => {
  assert.deepEqual(splitQuota(null), { quota: "", quota_unit: "GB" });
  assert.deepEqual(splitQuota(1.5 * 1024 ** 3), { quota: "1.5", quota_unit: "GB" });
  assert.deepEqual(splitQuota(1000 * 1024 ** 2), { quota: "1000", quota_unit: "MB" });
  assert.equal(quotaBytes({ quota: "", quota_unit: "GB" }), null);
  assert.equal(quotaBytes({ quota: "2", quota_unit: "TB" }), 2 * 1024 ** 4);
  assert.equal(quotaBytes({ quota: "-1", quota_unit: "GB" }), undefined);
  assert.equal(quotaBytes({ quota: "0", quota_unit: "GB" }), undefined);
});

Deno.test("editing keeps the stored secret and quota unless changed", () => {
  const v = editStorageForm(view);
  assert.equal(v.access_key_id, "");
  assert.equal(v.secret_access_key, "");
  const body = toUpdateBody(v, view);
  assert.ok(!("access_key_id" in body));
  assert.ok(!("secret_access_key" in body));
  assert.ok(!("total_storage_bytes" in body));
  assert.equal(body.bucket_name, "files");
  const changed = toUpdateBody({ ...v, secret_access_key: "new", quota: "" }, view);
  assert.equal(changed.secret_access_key, "new");
  assert.equal(changed.total_storage_bytes, null);
});

Deno.test("local configs send only their own fields; the root only when changed", () => {
  const local = {
    ...newStorageForm("local"),
    name: "Disk",
    quota: "10",
    quota_unit: "MB" as const,
  };
  assert.deepEqual(toCreateBody(local), {
    name: "Disk",
    provider_type: "local",
    is_public: false,
    total_storage_bytes: 10 * 1024 ** 2,
  });
  const lv = {
    ...view,
    provider_type: "local" as const,
    storage_type: "local" as const,
    root_dir: "/data/storage",
  };
  assert.ok(!("root_dir" in toUpdateBody(editStorageForm(lv), lv)));
  assert.equal(toUpdateBody({ ...editStorageForm(lv), root_dir: "/srv" }, lv).root_dir, "/srv");
  assert.equal(STORAGE_REFUSALS.fields?.bucket_name, "bucket_name");
  assert.equal(STORAGE_REFUSALS.fields?.bogus, undefined);
});
