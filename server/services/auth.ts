/**
 * Authentication: the admin account, its sessions and API keys. `authenticate` turns an
 * Authorization header into an Auth value; every route's guard reads only that value.
 */
import type { Config } from "../config.ts";
import { type AccountRepo, type AdminAccount } from "../kv/account_repo.ts";
import type { RateLimiter } from "../kv/rate_limit_repo.ts";
import type { ApiKeyRecord } from "../kv/api_key_repo.ts";
import type { ApiKeyService } from "./api_keys.ts";
import { AppError, badRequest, unauthorized } from "../errors.ts";
import { hashPassword, randomToken, sha256Hex, verifyPassword } from "./crypto.ts";
import { ALL_PERMISSIONS } from "../../shared/permissions.ts";
import type { ChangePassword } from "../../shared/schemas/auth.ts";

export type Auth =
  | { type: "none"; failure?: "session_expired" | "api_key_invalid" }
  | {
    type: "admin";
    id: "admin";
    username: string;
    tokenHash: string;
    permissions: number;
    basicPath: "/";
  }
  | { type: "apikey"; id: string; key: ApiKeyRecord; permissions: number; basicPath: string };

export const ANONYMOUS: Auth = { type: "none" };

/** The created_by value for records made by this caller. */
export function creatorOf(auth: Auth): string {
  if (auth.type === "apikey") return `apikey:${auth.id}`;
  return "admin";
}

export class AuthService {
  constructor(
    private config: Config,
    private accounts: AccountRepo,
    private keys: ApiKeyService,
    private limiter: RateLimiter,
    private log: (msg: string) => void = console.log,
  ) {}

  /**
   * Creates the admin account on first start. Without ADMIN_USERNAME/ADMIN_PASSWORD a random
   * password is generated and printed once.
   */
  async ensureAdmin(): Promise<void> {
    if ((await this.accounts.getAdmin()).value) return;
    const username = this.config.adminUsername ?? "admin";
    const generated = this.config.adminPassword === null;
    const password = this.config.adminPassword ?? randomToken(12);
    const now = new Date().toISOString();
    const created = await this.accounts.createAdminIfMissing({
      username,
      password_hash: await hashPassword(password, this.config.kdfIterations),
      session_epoch: 0,
      created_at: now,
      updated_at: now,
    });
    if (created && generated) {
      this.log(
        `\n  Cubby created the admin account.\n  username: ${username}\n  password: ${password}\n` +
          `  (shown once; change it under Admin → Account)\n`,
      );
    }
  }

  /** Checks username and password; returns a new session token. Throws 401 or 429. */
  async login(username: string, password: string, clientIp: string) {
    const subject = `${clientIp}|${username.toLowerCase()}`;
    await this.limiter.assertAllowed("login", subject);
    const { value: admin } = await this.accounts.getAdmin();
    const valid = admin !== null && admin.username === username &&
      await verifyPassword(password, admin.password_hash);
    if (!valid || !admin) {
      await this.limiter.recordFailure("login", subject);
      throw unauthorized("invalid_credentials");
    }
    await this.limiter.reset("login", subject);
    const token = randomToken(32);
    const session = await this.accounts.createSession(sha256Hex(token), admin.session_epoch);
    return { token, username: admin.username, expires_at: session.expires_at };
  }

  /** Revokes the session of this token. */
  async logout(auth: Auth): Promise<void> {
    if (auth.type === "admin") await this.accounts.deleteSession(auth.tokenHash);
  }

  /** Resolves an Authorization header; never throws for bad credentials. */
  async authenticate(header: string | undefined): Promise<Auth> {
    if (!header) return ANONYMOUS;
    const space = header.indexOf(" ");
    const scheme = space > 0 ? header.slice(0, space).toLowerCase() : "";
    const credential = space > 0 ? header.slice(space + 1).trim() : "";
    if (scheme === "bearer" && credential) return await this.authenticateSession(credential);
    if (scheme === "apikey" && credential) {
      const key = await this.keys.verify(credential);
      if (!key) return { type: "none", failure: "api_key_invalid" };
      return {
        type: "apikey",
        id: key.id,
        key,
        permissions: key.permissions,
        basicPath: key.basic_path,
      };
    }
    return ANONYMOUS;
  }

  private async authenticateSession(token: string): Promise<Auth> {
    const tokenHash = sha256Hex(token);
    const [session, { value: admin }] = await Promise.all([
      this.accounts.getSession(tokenHash),
      this.accounts.getAdmin(),
    ]);
    if (!session || !admin || session.epoch !== admin.session_epoch) {
      return { type: "none", failure: "session_expired" };
    }
    return {
      type: "admin",
      id: "admin",
      username: admin.username,
      tokenHash,
      permissions: ALL_PERMISSIONS,
      basicPath: "/",
    };
  }

  /**
   * Checks HTTP Basic credentials (WebDAV) without creating a session: the admin username and
   * password, or an API key given as both user and password. Failures are rate-limited per
   * client address (`webdavLogin`). A successful admin check is remembered for a few minutes,
   * keyed by the stored hash too, so a password change ends it. Throws 401 or 429.
   */
  async authenticateBasic(username: string, password: string, clientIp: string): Promise<Auth> {
    // Checked first, so a blocked client cannot confirm a guess through the memo either.
    await this.limiter.assertAllowed("webdavLogin", clientIp);
    const { value: admin } = await this.accounts.getAdmin();
    const memo = admin ? sha256Hex(`${username}\0${password}\0${admin.password_hash}`) : "";
    const hit = this.basicMemo.get(memo);
    if (admin && hit && hit > Date.now()) return this.adminAuth(admin.username);
    if (username === password) {
      const key = await this.keys.verify(password);
      if (key) {
        return {
          type: "apikey",
          id: key.id,
          key,
          permissions: key.permissions,
          basicPath: key.basic_path,
        };
      }
    }
    if (
      admin && admin.username === username && await verifyPassword(password, admin.password_hash)
    ) {
      if (this.basicMemo.size >= 64) this.basicMemo.clear();
      this.basicMemo.set(memo, Date.now() + 5 * 60_000);
      await this.limiter.reset("webdavLogin", clientIp);
      return this.adminAuth(admin.username);
    }
    await this.limiter.recordFailure("webdavLogin", clientIp);
    throw unauthorized("invalid_credentials");
  }

  private basicMemo = new Map<string, number>();

  private adminAuth(username: string): Auth {
    return {
      type: "admin",
      id: "admin",
      username,
      tokenHash: "",
      permissions: ALL_PERMISSIONS,
      basicPath: "/",
    };
  }

  /** Verifies an API key for a login form; throws 401 api_key_verify_failed or 429. */
  async loginWithApiKey(key: string, clientIp: string): Promise<ApiKeyRecord> {
    await this.limiter.assertAllowed("apiKeyLogin", clientIp);
    const rec = await this.keys.verify(key);
    if (!rec) {
      await this.limiter.recordFailure("apiKeyLogin", clientIp);
      throw unauthorized("api_key_verify_failed");
    }
    return rec;
  }

  /**
   * Changes the admin username and/or password after checking the current password.
   * Every session is revoked. Throws 400 for invalid input, 401 for a wrong password.
   */
  async changeAccount(auth: Auth, input: ChangePassword, clientIp: string): Promise<void> {
    if (auth.type !== "admin") throw new AppError("forbidden", 403);
    const newUsername = input.newUsername?.trim() || undefined;
    const newPassword = input.newPassword || undefined;
    if (!newUsername && !newPassword) throw badRequest("nothing_to_change");
    const subject = `${clientIp}|account`;
    await this.limiter.assertAllowed("login", subject);
    const entry = await this.accounts.getAdmin();
    const admin = entry.value as AdminAccount;
    if (!await verifyPassword(input.currentPassword, admin.password_hash)) {
      await this.limiter.recordFailure("login", subject);
      throw unauthorized("wrong_current_password");
    }
    if (newPassword && newPassword === input.currentPassword) {
      throw badRequest("password_unchanged");
    }
    const next: AdminAccount = {
      ...admin,
      username: newUsername ?? admin.username,
      password_hash: newPassword
        ? await hashPassword(newPassword, this.config.kdfIterations)
        : admin.password_hash,
      session_epoch: admin.session_epoch + 1,
      updated_at: new Date().toISOString(),
    };
    if (!await this.accounts.updateAdmin(next, entry.versionstamp!)) {
      throw new AppError("conflict", 409);
    }
  }
}
