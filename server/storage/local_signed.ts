/**
 * The local driver's "presigned" URLs: they point back at Cubby
 * (`urlPrefix/<key>?op=…&exp=…&sig=…`), signed by `signing.ts`, and the serving route
 * (`routes/local_storage.ts`) checks them with `verifySignedUrl` before touching the driver.
 * The signature binds the config id (`scope`), so a URL signed for one config is refused on
 * another config's route even though all local configs share the signing secret.
 */
import { AppError } from "../errors.ts";
import { encodeKeyPath } from "./driver_wire.ts";
import { validateKey } from "./driver.ts";
import { type SignedOp, signStorageQuery, verifyStorageQuery } from "./signing.ts";

/** What a verified presigned Cubby URL allows. */
export type SignedRequest = {
  op: SignedOp;
  key: string;
  filename?: string;
  contentType?: string;
  download: boolean;
  /** The exact byte count a signed PUT must carry, when it was bound. */
  size?: number;
  uploadId?: string;
  partNumber?: number;
};

/** Where signed URLs point, the secret that signs them and the config id they are bound to. */
export type SigningConfig = { signingSecret: string; urlPrefix: string; scope: string };

/** A signed URL for one operation on a key; throws 400 on a bad key. */
export function signedUrl(
  cfg: SigningConfig,
  op: SignedOp,
  key: string,
  expiresIn: number,
  params: Record<string, string>,
): string {
  validateKey(key);
  const query = signStorageQuery(cfg.signingSecret, {
    scope: cfg.scope,
    op,
    key,
    expiresIn,
    params,
  });
  return `${cfg.urlPrefix}/${encodeKeyPath(key)}?${query}`;
}

/**
 * Checks a signed URL for a request method and returns what it allows. Throws 403
 * `storage_signature_invalid` / `storage_signature_expired`, or 400 for a bad key.
 */
export function verifySignedUrl(
  cfg: SigningConfig,
  url: URL | string,
  method: string,
  now?: number,
): SignedRequest {
  const u = typeof url === "string" ? new URL(url, "http://cubby.invalid") : url;
  const base = new URL(cfg.urlPrefix, "http://cubby.invalid").pathname.replace(/\/$/, "");
  const invalid = () => new AppError("storage_signature_invalid", 403);
  if (!u.pathname.startsWith(base + "/")) throw invalid();
  let key: string;
  try {
    key = u.pathname.slice(base.length + 1).split("/").map(decodeURIComponent).join("/");
  } catch {
    throw invalid();
  }
  validateKey(key);
  const op = u.searchParams.get("op") as SignedOp;
  const m = method.toUpperCase();
  const allowed = op === "get" ? m === "GET" || m === "HEAD" : op === "put" || op === "part";
  if (!allowed || (op !== "get" && m !== "PUT")) throw invalid();
  const result = verifyStorageQuery(cfg.signingSecret, {
    scope: cfg.scope,
    op,
    key,
    query: u.searchParams,
    now,
  });
  if (!result.ok) {
    throw result.reason === "expired" ? new AppError("storage_signature_expired", 403) : invalid();
  }
  const p = result.params;
  return {
    op,
    key,
    filename: p.filename,
    contentType: p.ct,
    download: p.dl === "1",
    size: p.size ? Number(p.size) : undefined,
    uploadId: p.uploadId,
    partNumber: p.partNumber ? Number(p.partNumber) : undefined,
  };
}
