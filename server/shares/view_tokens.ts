/**
 * Short-lived signed tokens. A counted open of a share hands out preview and download links
 * carrying one, so those links do not count a view again (docs/PRODUCT.md §12.4). The HMAC key
 * lives in KV so every instance accepts every other instance's tokens.
 */
import { createHmac } from "node:crypto";
import { keys } from "../kv/keys.ts";
import { randomToken, safeEqual } from "../lib/crypto.ts";

/** Reads the instance-wide signing secret from KV, creating it once (first writer wins). */
export async function loadSigningSecret(kv: Deno.Kv): Promise<string> {
  const existing = (await kv.get<string>(keys.signingSecret())).value;
  if (existing) return existing;
  await kv.atomic().check({ key: keys.signingSecret(), versionstamp: null })
    .set(keys.signingSecret(), randomToken(32)).commit();
  return (await kv.get<string>(keys.signingSecret())).value!;
}

/**
 * HMAC-SHA256 signer. Synchronous node:crypto underneath: an async WebCrypto `sign` cost about
 * a fifth of a counted view's CPU; the methods stay async for their callers.
 */
export class Signer {
  private constructor(private secret: string) {}

  /** A signer over the given secret. */
  static fromSecret(secret: string): Promise<Signer> {
    return Promise.resolve(new Signer(secret));
  }

  /** The base64url HMAC (unpadded) of a message. */
  mac(message: string): Promise<string> {
    return Promise.resolve(createHmac("sha256", this.secret).update(message).digest("base64url"));
  }

  /** A token binding `subject` until `ttlMs` from now: `<expiry ms>.<mac>`. */
  async issue(subject: string, ttlMs: number): Promise<string> {
    const exp = Date.now() + ttlMs;
    return `${exp}.${await this.mac(`${subject}|${exp}`)}`;
  }

  /** True when the token was issued for `subject` and has not expired (constant-time compare). */
  async verify(subject: string, token: string | undefined | null): Promise<boolean> {
    if (!token) return false;
    const dot = token.indexOf(".");
    const exp = Number(token.slice(0, dot));
    if (dot < 1 || !Number.isFinite(exp) || exp < Date.now()) return false;
    return safeEqual(token.slice(dot + 1), await this.mac(`${subject}|${exp}`));
  }
}
