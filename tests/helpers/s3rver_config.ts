/**
 * The storage-config fields for a bucket of a running s3rver, shared by the API test helper
 * (tests/helpers/app.ts) and browser specs. No Deno API and no `import.meta`: Playwright loads
 * this module too.
 */

/** Fields of POST /api/s3-configs for an s3rver bucket (path-style, S3RVER credentials). */
export function s3rverConfigFields(
  s3: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string },
) {
  return {
    name: "s3rver",
    provider_type: "minio",
    endpoint_url: s3.endpoint,
    bucket_name: s3.bucket,
    access_key_id: s3.accessKeyId,
    secret_access_key: s3.secretAccessKey,
    path_style: true,
  };
}
