/**
 * Public proxy links of mount files: `/api/p/<path>` streams a file of a mount whose web proxy
 * is on, to anyone holding the link. When signing is on (setting `proxy_sign_all`, or the
 * mount's `enable_sign`) the link carries `sign=<expiry ms>.<HMAC>` over the mount id, the
 * mount's storage config id, the path and the expiry (`proxyLinkMessage`), so a link stops
 * working when its mount is replaced or pointed at another storage; expiry 0 means never.
 *
 * The lifetime is the mount's `sign_expires` when above 0, else the setting
 * `proxy_sign_expires`; 0 for both means never. A link is checked against the lifetime in
 * force when it is used, so turning expiry on (or shortening it) also retires older links.
 */
import type { MountService } from "../services/mounts.ts";
import type { FsService } from "./fs.ts";
import type { SettingsService } from "../services/settings.ts";
import type { Signer } from "../shares/view_tokens.ts";
import { ANONYMOUS, type Auth } from "../services/auth.ts";
import { safeEqual } from "../lib/crypto.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import type { MountRecord } from "../kv/mount_repo.ts";
import { normalizePath } from "../../shared/permissions.ts";
import type { RequestedRange } from "../storage/ranges.ts";

/** Clock skew allowed between instances when checking a link's expiry against its lifetime. */
const SKEW_MS = 60_000;

/** The text a proxy link's signature covers: everything that decides which bytes it serves. */
export function proxyLinkMessage(
  mount: Pick<MountRecord, "id" | "storage_config_id">,
  path: string,
  exp: number,
): string {
  return ["proxy-link-v2", mount.id, mount.storage_config_id, path, exp]
    .map((part) => encodeURIComponent(String(part)))
    .join("|");
}

/** The URL path of a proxy link (each segment percent-encoded). */
export function proxyPathOf(path: string): string {
  return `/api/p${path.split("/").map(encodeURIComponent).join("/")}`;
}

export class ProxyLinkService {
  constructor(
    private mounts: MountService,
    private fs: FsService,
    private settings: SettingsService,
    private signer: Signer,
  ) {}

  /** Whether links of a mount need a signature, and their lifetime in seconds (0: never). */
  private async policy(mount: MountRecord): Promise<{ signed: boolean; expiresIn: number }> {
    const global = await this.settings.getProxySign();
    return {
      signed: global.signAll || mount.enable_sign,
      expiresIn: mount.sign_expires > 0 ? mount.sign_expires : global.expiresIn,
    };
  }

  private async mac(mount: MountRecord, path: string, exp: number): Promise<string> {
    return await this.signer.mac(proxyLinkMessage(mount, path, exp));
  }

  /**
   * The proxy link of a file the caller may see, signed when the mount needs it. Throws 400
   * web_proxy_disabled when the mount's web proxy is off, 404 when the file is missing.
   */
  async linkFor(path: string, auth: Auth) {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    if (!r.mount.web_proxy) throw badRequest("web_proxy_disabled");
    await this.fs.get(r.path, auth);
    const { signed, expiresIn } = await this.policy(r.mount);
    if (!signed) return { url: proxyPathOf(r.path), signed, expires_at: null };
    const exp = expiresIn > 0 ? Date.now() + expiresIn * 1000 : 0;
    const sign = `${exp}.${await this.mac(r.mount, r.path, exp)}`;
    return {
      url: `${proxyPathOf(r.path)}?sign=${encodeURIComponent(sign)}`,
      signed,
      expires_at: exp ? new Date(exp).toISOString() : null,
    };
  }

  /**
   * Opens a file through its public proxy link. Throws 404 when no active mount with web proxy
   * holds it or the file is missing, 401 proxy_sign_required without a needed signature, 403
   * storage_signature_invalid or storage_signature_expired for a bad or stale one.
   */
  async open(path: string, sign: string | undefined, range?: RequestedRange) {
    const p = normalizePath(path);
    if (p === null) throw badRequest("storage_path_invalid");
    // A public link has no caller: resolve applies no base path to ANONYMOUS.
    const r = await this.mounts.resolve(p, ANONYMOUS);
    if (!r.mount.web_proxy || !r.key) throw notFound("not_found");
    const { signed, expiresIn } = await this.policy(r.mount);
    if (signed) await this.verify(r.mount, r.path, sign, expiresIn);
    return await this.fs.download(r.path, ANONYMOUS, range);
  }

  private async verify(
    mount: MountRecord,
    path: string,
    sign: string | undefined,
    expiresIn: number,
  ) {
    if (!sign) throw new AppError("proxy_sign_required", 401);
    const dot = sign.indexOf(".");
    const expText = sign.slice(0, Math.max(dot, 0));
    const exp = /^\d{1,16}$/.test(expText) ? Number(expText) : NaN;
    const valid = Number.isSafeInteger(exp) &&
      safeEqual(sign.slice(dot + 1), await this.mac(mount, path, exp));
    if (!valid) throw new AppError("storage_signature_invalid", 403);
    const now = Date.now();
    const stale = exp > 0 && exp < now;
    const beyondPolicy = expiresIn > 0 && (exp === 0 || exp > now + expiresIn * 1000 + SKEW_MS);
    if (stale || beyondPolicy) {
      throw new AppError("storage_signature_expired", 403);
    }
  }
}
