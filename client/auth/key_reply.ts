/**
 * Reading the answer of GET /test/api-key for a key login or a key revalidation
 * (docs/PRODUCT.md §8.5): the key must be identified (`key_info`), its permissions readable, and at
 * least one permission granted. Each failure has its own catalogue code, so the login form
 * says which one it was.
 */
import { permissionsToMask } from "../../shared/permissions.ts";

/** What GET /test/api-key answers (server/routes/auth.ts). */
export type ApiKeyTestReply = {
  name: string;
  permissions: Record<string, boolean>;
  permission_mask?: number;
  key_info: { id: string; name: string; basic_path: string };
  expires_at: string | null;
  is_guest: boolean;
};

export type KeyReplyCheck =
  | { ok: true; keyInfo: ApiKeyTestReply["key_info"]; mask: number }
  | {
    ok: false;
    code: "api_key_verify_failed" | "permission_info_failed" | "api_key_unauthorized";
  };

function isKeyInfo(v: unknown): v is ApiKeyTestReply["key_info"] {
  const k = v as Partial<ApiKeyTestReply["key_info"]> | null;
  return typeof k === "object" && k !== null && typeof k.id === "string" &&
    typeof k.name === "string" && typeof k.basic_path === "string";
}

/**
 * Checks a /test/api-key reply:
 * - no usable `key_info` → `api_key_verify_failed` (the key was not verified);
 * - neither `permission_mask` nor a `permissions` object → `permission_info_failed`;
 * - no permission at all → `api_key_unauthorized` (the key may not do anything here).
 */
export function checkKeyReply(reply: unknown): KeyReplyCheck {
  const r = reply as Partial<ApiKeyTestReply> | null;
  if (typeof r !== "object" || r === null || !isKeyInfo(r.key_info)) {
    return { ok: false, code: "api_key_verify_failed" };
  }
  let mask: number;
  if (typeof r.permission_mask === "number" && Number.isInteger(r.permission_mask)) {
    mask = r.permission_mask;
  } else if (typeof r.permissions === "object" && r.permissions !== null) {
    mask = permissionsToMask(r.permissions);
  } else return { ok: false, code: "permission_info_failed" };
  if (mask <= 0) return { ok: false, code: "api_key_unauthorized" };
  return { ok: true, keyInfo: r.key_info, mask };
}
