/**
 * Short-lived signed tokens. A counted open of a share hands out preview and download links
 * carrying one, so those links do not count a view again (product.md §3). The HMAC key lives in
 * KV so every instance accepts every other instance's tokens.
 */
import { keys } from "../kv/keys.ts";
import { randomToken, safeEqual } from "../services/crypto.ts";

const encoder = new TextEncoder();

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Reads the instance-wide signing secret from KV, creating it once (first writer wins). */
export async function loadSigningSecret(kv: Deno.Kv): Promise<string> {
  const existing = (await kv.get<string>(keys.signingSecret())).value;
  if (existing) return existing;
  await kv.atomic().check({ key: keys.signingSecret(), versionstamp: null })
    .set(keys.signingSecret(), randomToken(32)).commit();
  return (await kv.get<string>(keys.signingSecret())).value!;
}

export class Signer {
  private constructor(private key: CryptoKey) {}

  /** A signer over the given secret. */
  static async fromSecret(secret: string): Promise<Signer> {
    const key = await crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return new Signer(key);
  }

  /** The base64url HMAC of a message. */
  async mac(message: string): Promise<string> {
    return b64url(
      new Uint8Array(await crypto.subtle.sign("HMAC", this.key, encoder.encode(message))),
    );
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
