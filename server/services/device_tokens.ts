/**
 * Known-device tokens for the admin login (the "device cookie" defence against lockouts): a
 * successful login hands the browser a token signed for that username, and later logins that
 * present it are slowed by the device's own failures instead of those of everyone at the same
 * address. The token is HMAC-signed with the KV signing secret, so every instance accepts it and
 * nothing is stored per device; only its failures are counted, under its random id.
 */
import { createHmac } from "node:crypto";
import { randomToken, safeEqual } from "../lib/crypto.ts";

/** How long a device token is honoured; every successful login hands out a fresh one. */
export const DEVICE_TOKEN_TTL_MS = 180 * 24 * 60 * 60 * 1000;

export class DeviceTokens {
  constructor(private secret: string, private ttlMs = DEVICE_TOKEN_TTL_MS) {}

  private mac(username: string, id: string, exp: number): string {
    return createHmac("sha256", this.secret).update(`device|v1|${username}|${id}|${exp}`)
      .digest("base64url");
  }

  /** A new token for a device that just logged in as `username`: `<id>.<expiry ms>.<mac>`. */
  issue(username: string): string {
    const id = randomToken(16);
    const exp = Date.now() + this.ttlMs;
    return `${id}.${exp}.${this.mac(username, id, exp)}`;
  }

  /** The device id of a live token issued for `username`; null for anything else. */
  verify(token: string | undefined, username: string): string | null {
    const parts = token?.split(".") ?? [];
    if (parts.length !== 3) return null;
    const [id, expText, mac] = parts;
    const exp = Number(expText);
    if (!id || !Number.isSafeInteger(exp) || exp <= Date.now()) return null;
    return safeEqual(mac, this.mac(username, id, exp)) ? id : null;
  }
}
