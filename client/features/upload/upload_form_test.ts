import assert from "node:assert/strict";
import {
  checkSlug,
  expiresInFor,
  INITIAL_VALUES,
  methodFor,
  parseMaxViews,
  pastedFileName,
  toShareOptions,
} from "./upload_form.ts";
import { formatBytes } from "../../lib/format.ts";
import type { StorageConfigView } from "../../../shared/schemas/storage_configs.ts";

Deno.test("link suffix, max views and expiry follow docs/PRODUCT.md §5.2 and §9.1", () => {
  assert.equal(checkSlug(""), null);
  assert.equal(checkSlug("my-file_1"), null);
  assert.equal(checkSlug("bad slug"), "slug_invalid");
  assert.equal(checkSlug("x".repeat(51)), "slug_invalid");
  assert.equal(checkSlug("Admin"), "slug_reserved");
  assert.equal(parseMaxViews(""), 0);
  assert.equal(parseMaxViews("5"), 5);
  assert.equal(parseMaxViews("-1"), null);
  assert.equal(parseMaxViews("1.5"), null);
  assert.equal(expiresInFor("1h"), 1);
  assert.equal(expiresInFor("1d"), 24);
  assert.equal(expiresInFor("30d"), 30 * 24);
  assert.equal(expiresInFor("never"), 0);
});

Deno.test("the flow is presign for S3 configs and the form otherwise, unless forced", () => {
  const s3 = { storage_type: "s3" } as StorageConfigView;
  const local = { storage_type: "local" } as StorageConfigView;
  assert.equal(methodFor("auto", s3), "presign");
  assert.equal(methodFor("auto", local), "form");
  assert.equal(methodFor("auto", undefined), "form");
  assert.equal(methodFor("form", s3), "form");
  assert.equal(methodFor("presign", local), "presign");
});

Deno.test("large files go in parts automatically, above a threshold tests can lower", () => {
  const local = { storage_type: "local" } as StorageConfigView;
  const MiB = 1024 * 1024;
  assert.equal(methodFor("auto", local, 10 * MiB), "form");
  assert.equal(methodFor("auto", local, 10 * MiB + 1), "multipart");
  assert.equal(methodFor("auto", local, 7 * MiB, 6 * MiB), "multipart");
  assert.equal(methodFor("form", local, 50 * MiB), "form");
  assert.equal(methodFor("multipart", local, 1), "multipart");
});

Deno.test("share options carry the suffix only for a single file", () => {
  const v = { ...INITIAL_VALUES, slug: " abc ", expiry: "1d" as const, maxViews: "3" };
  assert.equal(toShareOptions(v, true).slug, "abc");
  assert.equal(toShareOptions(v, false).slug, undefined);
  assert.deepEqual(toShareOptions(v, false), {
    s3ConfigId: undefined,
    slug: undefined,
    remark: undefined,
    password: undefined,
    expiresIn: 24,
    maxViews: 3,
    useProxy: true,
  });
});

Deno.test("pasted images get a dated name; sizes read well", () => {
  const when = new Date(2025, 0, 2, 3, 4, 5);
  assert.equal(pastedFileName(new File([], "image.png"), when), "pasted-20250102-030405.png");
  assert.equal(pastedFileName(new File([], "notes.txt"), when), "notes.txt");
  assert.equal(formatBytes(0), "0 B");
  assert.equal(formatBytes(1536), "1.5 KB");
  assert.equal(formatBytes(100 * 1024 * 1024), "100 MB");
});
