/** Turns a stored storage config into a live driver. */
import type { StorageConfigRecord } from "../kv/storage_config_repo.ts";
import type { StorageDriver } from "./driver.ts";
import { LocalDriver } from "./local.ts";
import { S3Driver } from "./s3.ts";

/** The URL prefix of a local config's signed object URLs (served by routes/local_storage.ts). */
export function localUrlPrefix(configId: string): string {
  return `/api/storage/local/${configId}`;
}

/** Builds the driver of a config with its decrypted secret. */
export function createDriver(
  rec: StorageConfigRecord,
  opts: { secretAccessKey: string; localRoot: string; signingSecret: string },
): StorageDriver {
  if (rec.provider_type === "local") {
    return new LocalDriver({
      root: opts.localRoot,
      signingSecret: opts.signingSecret,
      configId: rec.id,
      urlPrefix: localUrlPrefix(rec.id),
    });
  }
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
