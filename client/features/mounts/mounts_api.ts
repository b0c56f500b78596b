/** Calls of the mount screens (docs/PRODUCT.md §7.5); each throws ApiError. */
import { api } from "../../api/client.ts";
import type { MountView } from "../../../shared/schemas/mounts.ts";

export type { MountView };

/** The body of POST /api/mount/create; PUT takes any subset. */
export type MountBody = {
  name: string;
  mount_path: string;
  storage_type: "s3" | "local";
  storage_config_id: string;
  remark?: string;
  sort_order?: number;
  cache_ttl?: number;
  is_active?: boolean;
  web_proxy?: boolean;
  enable_sign?: boolean;
  sign_expires?: number;
  webdav_policy?: "302_redirect" | "native_proxy";
};

const enc = encodeURIComponent;

/** The mounts the caller may see: all for the admin, active ones in a key's base path. */
export function listMounts(): Promise<MountView[]> {
  return api<MountView[]>("/mount/list");
}

/**
 * Creates a mount (admin); throws mount_path_taken (409) and the validation codes of
 * docs/PRODUCT.md §5.1.
 */
export function createMount(body: MountBody): Promise<MountView> {
  return api<MountView>("/mount/create", { method: "POST", body });
}

/** Updates a mount (admin); enabling and disabling is `{is_active}`. */
export function updateMount(id: string, body: Partial<MountBody>): Promise<MountView> {
  return api<MountView>(`/mount/${enc(id)}`, { method: "PUT", body });
}

/** Deletes a mount (admin); its stored files stay where they are. */
export function deleteMount(id: string): Promise<null> {
  return api<null>(`/mount/${enc(id)}`, { method: "DELETE" });
}
