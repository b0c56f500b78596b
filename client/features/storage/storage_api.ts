/** Calls of the storage config screen (docs/PRODUCT.md §7.4, admin); each throws ApiError. */
import { api } from "../../api/client.ts";
import type {
  ProviderType,
  StorageConfigView,
  StorageTestStep,
} from "../../../shared/schemas/storage_configs.ts";

export type { ProviderType, StorageConfigView, StorageTestStep };

/** The body of POST /api/s3-configs; PUT takes any subset (an absent secret keeps the stored one). */
export type StorageConfigBody = {
  name: string;
  provider_type: ProviderType;
  endpoint_url?: string;
  bucket_name?: string;
  region?: string;
  access_key_id?: string;
  secret_access_key?: string;
  path_style?: boolean;
  default_folder?: string;
  is_public?: boolean;
  custom_host?: string;
  signature_expires_in?: number;
  total_storage_bytes?: number | null;
  root_dir?: string;
};

export type StorageTestResult = { ok: boolean; steps: StorageTestStep[] };

const enc = encodeURIComponent;

/** Every storage config (admin). */
export function listStorageConfigs(): Promise<StorageConfigView[]> {
  return api<StorageConfigView[]>("/s3-configs");
}

/** Creates a config; the first one becomes the default. */
export function createStorageConfig(body: StorageConfigBody): Promise<StorageConfigView> {
  return api<StorageConfigView>("/s3-configs", { method: "POST", body });
}

/** Updates a config. */
export function updateStorageConfig(
  id: string,
  body: Partial<StorageConfigBody>,
): Promise<StorageConfigView> {
  return api<StorageConfigView>(`/s3-configs/${enc(id)}`, { method: "PUT", body });
}

/** Deletes a config; throws storage_config_in_use (409) while files or mounts use it. */
export function deleteStorageConfig(id: string): Promise<null> {
  return api<null>(`/s3-configs/${enc(id)}`, { method: "DELETE" });
}

/** Makes a config the default for new uploads. */
export function setDefaultStorageConfig(id: string): Promise<null> {
  return api<null>(`/s3-configs/${enc(id)}/set-default`, { method: "PUT" });
}

/** Tests a config: connect, write, read, list, delete and (S3) CORS. Can take a while. */
export function testStorageConfig(id: string): Promise<StorageTestResult> {
  return api<StorageTestResult>(`/s3-configs/${enc(id)}/test`, {
    method: "POST",
    timeoutMs: 120_000,
  });
}
