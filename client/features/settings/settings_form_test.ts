import assert from "node:assert/strict";
import { serverFieldErrors, toFormValues, validateSettingsForm } from "./settings_form.ts";
import { groupMetadata } from "../../../shared/schemas/settings.ts";
import { ApiError } from "../../api/client.ts";

Deno.test("settings form: inputs from values, the server's checks, typed output", () => {
  const metas = groupMetadata(1);
  const values = toFormValues([
    { key: "max_upload_size", value: 100 },
    { key: "default_use_proxy", value: true },
  ]);
  assert.deepEqual(values, { max_upload_size: "100", default_use_proxy: true });

  const ok = validateSettingsForm(metas, { ...values, max_upload_size: " 42 " });
  assert.deepEqual(ok, { values: { max_upload_size: 42, default_use_proxy: true }, errors: {} });

  const bad = validateSettingsForm(metas, {
    max_upload_size: "1.5",
    proxy_sign_expires: "-1",
    file_overwrite_mode: "rename",
  });
  assert.deepEqual(Object.keys(bad.errors), ["max_upload_size", "proxy_sign_expires"]);
  assert.deepEqual(bad.errors.proxy_sign_expires, {
    error: "setting_integer_invalid",
    params: { min: 0, max: 31_536_000 },
  });
});

Deno.test("settings form: per-key errors of a failed save", () => {
  const err = new ApiError("settings_invalid", 400, "Invalid settings: site_title", {
    fields: { site_title: "setting_too_long" },
    params: { site_title: { max: 100 } },
  });
  assert.deepEqual(serverFieldErrors(err), {
    site_title: { error: "setting_too_long", params: { max: 100 } },
  });
  assert.equal(serverFieldErrors(new ApiError("network_error", 0, null)), null);
});
