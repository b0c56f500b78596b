/**
 * Turns a stored storage config into a live driver. The S3 driver, and with it the AWS SDK
 * (about 20 MB of resident memory), is imported when the first S3 config is used.
 */
import type { StorageConfigRecord } from "../kv/storage_config_repo.ts";
import type { StorageDriver } from "./driver.ts";
import { LocalDriver } from "./local.ts";
import { lazyImport } from "../lazy_import.ts";

/** The URL prefix of a local config's signed object URLs (served by routes/local_storage.ts). */
export function localUrlPrefix(configId: string): string {
  return `/api/storage/local/${configId}`;
}

/** Builds the driver of a config with its decrypted secret. */
export async function createDriver(
  rec: StorageConfigRecord,
  opts: { secretAccessKey: string; localRoot: string; signingSecret: string },
): Promise<StorageDriver> {
  if (rec.provider_type === "local") {
    return new LocalDriver({
      root: opts.localRoot,
      signingSecret: opts.signingSecret,
      configId: rec.id,
      urlPrefix: localUrlPrefix(rec.id),
    });
  }
  // Loaded on first use: the AWS SDK is large (lazy_import.ts).
  const { S3Driver } = await lazyImport<typeof import("./s3.ts")>("server/storage/s3.ts");
  return new S3Driver({
    endpoint: rec.endpoint_url || undefined,
    region: rec.region,
    bucket: rec.bucket_name,
    accessKeyId: rec.access_key_id,
    secretAccessKey: opts.secretAccessKey,
    pathStyle: rec.path_style,
    providerType: rec.provider_type,
    defaultFolder: rec.default_folder || undefined,
    customHost: rec.custom_host || undefined,
  });
}
