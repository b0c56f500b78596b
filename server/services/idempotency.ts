/**
 * Idempotency-Key results: reserve a key for one request, keep its successful reply (sealed with
 * the storage-secret key, because a reply may carry a secret such as a new API key) and give it
 * back for repeats. No Hono here; the HTTP side lives in server/http/idempotency.ts.
 */
import type {
  IdempotencyFingerprint,
  IdempotencyRecord,
  IdempotencyRepo,
} from "../kv/idempotency_repo.ts";
import type { SecretBox } from "./secret_box.ts";
import { IDEMPOTENCY_PENDING_TTL_MS, IDEMPOTENCY_RESULT_TTL_MS } from "../../shared/idempotency.ts";

/**
 * Replies larger than this are not kept (the key is released instead); the repo refuses sealed
 * replies that need more chunks than one commit carries, which also releases the key.
 */
export const MAX_KEPT_REPLY_CHARS = 400_000;

export type KeptReply = { status: number; contentType: string; body: string };

export type { IdempotencyFingerprint };

export type Claim =
  | { kind: "run"; versionstamp: string }
  | { kind: "pending"; fingerprint: IdempotencyFingerprint }
  | { kind: "done"; fingerprint: { request: string; body: string }; reply: KeptReply };

export class IdempotencyService {
  constructor(private repo: IdempotencyRepo, private box: SecretBox) {}

  /**
   * Claims `key` for a request of `fingerprint` (its body hash may still be unknown), or reports
   * what the key already holds.
   */
  async claim(scope: string, key: string, fingerprint: IdempotencyFingerprint): Promise<Claim> {
    const keyHash = await sha256Hex(key);
    const res = await this.repo.reserve(scope, keyHash, fingerprint, IDEMPOTENCY_PENDING_TTL_MS);
    if (res.reserved) return { kind: "run", versionstamp: res.versionstamp };
    return await this.toClaim(res.record, res.sealed);
  }

  /** Keeps a successful reply for repeats; false when it was too large or the claim was lost. */
  async keep(
    scope: string,
    key: string,
    versionstamp: string,
    fingerprint: { request: string; body: string },
    reply: KeptReply,
  ): Promise<boolean> {
    const keyHash = await sha256Hex(key);
    if (reply.body.length > MAX_KEPT_REPLY_CHARS) {
      await this.repo.release(scope, keyHash, versionstamp);
      return false;
    }
    const sealed = await this.box.seal(reply.body);
    const kept = await this.repo.complete(
      scope,
      keyHash,
      versionstamp,
      { ...fingerprint, status: reply.status, content_type: reply.contentType },
      sealed,
      IDEMPOTENCY_RESULT_TTL_MS,
    );
    if (!kept) await this.repo.release(scope, keyHash, versionstamp);
    return kept;
  }

  /** Frees a claimed key after a failed request, so a repeat runs again. */
  async release(scope: string, key: string, versionstamp: string): Promise<void> {
    await this.repo.release(scope, await sha256Hex(key), versionstamp);
  }

  private async toClaim(record: IdempotencyRecord, sealed: string | null): Promise<Claim> {
    if (record.state === "pending") {
      return { kind: "pending", fingerprint: { request: record.request, body: record.body } };
    }
    return {
      kind: "done",
      fingerprint: { request: record.request, body: record.body },
      reply: {
        status: record.status,
        contentType: record.content_type,
        body: await this.box.open(sealed ?? ""),
      },
    };
  }
}

/** Lower-case hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
