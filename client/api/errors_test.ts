import assert from "node:assert/strict";
import { ApiError } from "./client.ts";
import { errorText } from "./errors.ts";
import { createI18n } from "../i18n/mod.ts";

Deno.test("error texts: values from the reply fill the text; missing ones never show as {{name}}", () => {
  const { t } = createI18n("en-US");
  const withLimit = new ApiError("file_too_large", 413, "x", { max_bytes: 1024, limit: "1 KB" });
  assert.equal(errorText(t, withLimit), "The file exceeds the size limit (1 KB per upload)");
  // A 413 from a proxy in front of Cubby carries no limit.
  assert.equal(
    errorText(t, new ApiError("file_too_large", 413, null)),
    "The file exceeds the size limit",
  );
  assert.equal(errorText(t, new ApiError("file_too_large", 413, "Too big")), "Too big");
  const zh = createI18n("zh-CN").t;
  assert.equal(errorText(zh, new ApiError("file_too_large", 413, null)), "文件超过大小限制");
});
