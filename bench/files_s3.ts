/**
 * The S3 part of bench/files.ts: uploads and downloads through Cubby on a storage config on
 * s3rver, against `@aws-sdk/client-s3` straight against the same s3rver (8 MiB multipart, one
 * streamed `PutObject`, `GetObject`).
 */
import { createReadStream } from "node:fs";
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { startS3rver } from "../tests/helpers/s3rver.ts";
import type { FilesServer } from "../tests/shell/helpers.ts";
import { MiB } from "../tests/shell/helpers.ts";
import { type Client, Series, timed } from "./file_transfers.ts";
import { s3rverConfigFields } from "../tests/helpers/s3rver_config.ts";

const PART_SIZE = 8 * MiB; // what the S3 driver uses for streamed multipart puts

/**
 * The S3 rows: `opts.runs` uploads and downloads of `opts.sizeMb` MiB through Cubby (a storage
 * config on s3rver), against the SDK straight against the same s3rver.
 */
export async function s3Runs(
  server: FilesServer,
  client: Client,
  src: string,
  sha256: string,
  opts: { runs: number; sizeMb: number },
) {
  const RUNS = opts.runs;
  const S3_SIZE_MB = opts.sizeMb;
  const auth = client.auth;
  const s3 = await startS3rver("cubby-bench");
  try {
    const cfgRes = await fetch(`${server.url}/api/s3-configs`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ ...s3rverConfigFields(s3), is_public: true }),
    });
    const cfg = (await cfgRes.json()).data;
    if (!cfg?.id) throw new Error(`creating the s3rver config answered ${cfgRes.status}`);
    const sdk = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    const Bucket = s3.bucket;
    const size = S3_SIZE_MB * MiB;
    const r = {
      up: new Series(),
      down: new Series(),
      directMultipart: new Series(),
      directPut: new Series(),
      directGet: new Series(),
    };
    for (let i = 0; i < RUNS; i++) {
      const up = await timed(
        () => client.upload(src, `?s3_config_id=${cfg.id}`),
        server.pid,
      );
      r.up.add(S3_SIZE_MB, up.seconds, up.rss);
      const down = await timed(() => client.download(up.value.slug), server.pid);
      r.down.add(S3_SIZE_MB, down.seconds, down.rss);
      if (i === 0) await client.verify(up.value.slug, sha256);
      await client.deleteShare(up.value.id);

      const Key = `direct/run-${i}.bin`;
      const mp = await timed(async () => {
        const { UploadId } = await sdk.send(new CreateMultipartUploadCommand({ Bucket, Key }));
        const parts = [];
        const file = await Deno.open(src);
        try {
          for (let n = 1;; n++) {
            const part = new Uint8Array(
              Math.max(0, Math.min(PART_SIZE, size - (n - 1) * PART_SIZE)),
            );
            if (part.length === 0) break;
            for (let off = 0; off < part.length;) {
              const got = await file.read(part.subarray(off));
              if (got === null) throw new Error(`${src} is shorter than ${size} bytes`);
              off += got;
            }
            const { ETag } = await sdk.send(
              new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: n, Body: part }),
            );
            parts.push({ PartNumber: n, ETag });
          }
        } finally {
          file.close();
        }
        await sdk.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key,
            UploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
      });
      r.directMultipart.add(S3_SIZE_MB, mp.seconds);
      const put = await timed(() =>
        sdk.send(
          new PutObjectCommand({ Bucket, Key, Body: createReadStream(src), ContentLength: size }),
        )
      );
      r.directPut.add(S3_SIZE_MB, put.seconds);
      const get = await timed(async () => {
        const res = await sdk.send(new GetObjectCommand({ Bucket, Key }));
        let n = 0;
        for await (const chunk of res.Body as AsyncIterable<Uint8Array>) n += chunk.byteLength;
        if (n !== size) throw new Error(`direct GET returned ${n} bytes, not ${size}`);
      });
      r.directGet.add(S3_SIZE_MB, get.seconds);
      await sdk.send(new DeleteObjectCommand({ Bucket, Key }));
      console.log(
        `s3 run ${i + 1}: via Cubby up ${(S3_SIZE_MB / up.seconds).toFixed(0)} / down ` +
          `${(S3_SIZE_MB / down.seconds).toFixed(0)} MiB/s; direct multipart ` +
          `${(S3_SIZE_MB / mp.seconds).toFixed(0)}, put ${(S3_SIZE_MB / put.seconds).toFixed(0)}` +
          `, get ${(S3_SIZE_MB / get.seconds).toFixed(0)}`,
      );
    }
    sdk.destroy();
    return r;
  } finally {
    await s3.stop();
  }
}
