import assert from "node:assert/strict";
import { ApiError } from "./client.ts";
import { saveErrorCode } from "./save_errors.ts";

Deno.test("save errors: status and transport failures map to the save messages of docs/PRODUCT.md §8.5", () => {
  const cases: [ApiError | Error, boolean, string | null][] = [
    [new ApiError("payload_too_large", 413, "too big"), true, "content_over_server_limit"],
    [new ApiError("http_error", 413, null), true, "content_over_server_limit"],
    [new ApiError("api_key_permission_denied", 403, "no"), true, "no_update_permission"],
    [new ApiError("not_creator", 403, "no"), true, "no_update_permission"],
    [new ApiError("request_timeout", 0, null), true, "server_not_responding"],
    [new ApiError("request_timeout", 0, null), false, "server_not_responding"],
    [new ApiError("http_error", 502, null), true, "server_not_responding"],
    [new ApiError("http_error", 504, null), true, "server_not_responding"],
    [new ApiError("network_error", 0, null), true, "server_not_responding"],
    [new ApiError("network_error", 0, null), false, null],
    [new ApiError("slug_taken", 409, "taken"), true, null],
    [new ApiError("settings_invalid", 400, "bad"), true, null],
    [new ApiError("session_expired", 401, null), true, null],
    [new Error("boom"), true, null],
  ];
  for (const [err, online, code] of cases) {
    const label = err instanceof ApiError ? `${err.code}/${err.status}` : "plain Error";
    assert.equal(saveErrorCode(err, online), code, `${label} online=${online}`);
  }
});
