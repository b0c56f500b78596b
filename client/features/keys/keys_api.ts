/**
 * The API key calls of the admin (docs/PRODUCT.md §7.1: GET, POST /admin/api-keys; PUT, DELETE
 * /{id}).
 */
import { api } from "../../api/client.ts";
import type { ApiKeyView } from "../../../shared/schemas/api_keys.ts";
import type { PermissionObject } from "../../../shared/permissions.ts";

export type { ApiKeyView };

/** The body of a create call (docs/PRODUCT.md §3.4). */
export type ApiKeyCreateBody = {
  name: string;
  expires_at: string | null;
  permissions: PermissionObject;
  role: "GENERAL";
  custom_key?: string;
  basic_path: string;
  is_guest: 0 | 1;
};

/** The body of an update call; omitted fields stay as they are. */
export type ApiKeyUpdateBody = Partial<Omit<ApiKeyCreateBody, "custom_key" | "role">>;

/** Lists every key, masked. Throws ApiError. */
export function listApiKeys(): Promise<ApiKeyView[]> {
  return api<ApiKeyView[]>("/admin/api-keys");
}

/** Creates a key; the reply carries the full `key`, shown this once. Throws ApiError. */
export function createApiKey(body: ApiKeyCreateBody): Promise<ApiKeyView & { key: string }> {
  return api<ApiKeyView & { key: string }>("/admin/api-keys", { method: "POST", body });
}

/** Updates a key. Throws ApiError (api_key_not_found, api_key_name_exists...). */
export function updateApiKey(id: string, body: ApiKeyUpdateBody): Promise<ApiKeyView> {
  return api<ApiKeyView>(`/admin/api-keys/${encodeURIComponent(id)}`, { method: "PUT", body });
}

/** Deletes a key. Throws ApiError. */
export function deleteApiKey(id: string): Promise<void> {
  return api<void>(`/admin/api-keys/${encodeURIComponent(id)}`, { method: "DELETE" });
}
