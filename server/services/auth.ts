/**
 * Authentication: the admin account, its sessions and API keys. `authenticate` turns an
 * Authorization header into an Auth value; every route's guard reads only that value.
 */
import type { Config } from "../config.ts";
import { type AccountRepo, type AdminAccount } from "../kv/account_repo.ts";
import type { AttemptGuard } from "./attempts.ts";
import type { ApiKeyRecord } from "../kv/api_key_repo.ts";
import type { ApiKeyService } from "./api_keys.ts";
import type { DeviceTokens } from "./device_tokens.ts";
import { AppError, badRequest, unauthorized } from "../errors.ts";
import { hashPassword, randomToken, sha256Hex, verifyPassword } from "../lib/crypto.ts";
import { ALL_PERMISSIONS } from "../../shared/permissions.ts";
import type { ChangePassword } from "../../shared/schemas/auth.ts";
import {
  ACCOUNT_RULE_PARAMS,
  passwordProblem,
  usernameProblem,
} from "../../shared/account_rules.ts";
import { type ErrorCode, errorMessage } from "../../shared/errors.ts";
import { LANGUAGES } from "../../shared/constants.ts";

/** A setting that keeps the server from starting; main.ts prints its message and exits. */
export class StartupError extends Error {
  override name = "StartupError";
}

/** A 400 about one field of the account form, with the rules' parameters for its text. */
function fieldError(code: ErrorCode, field: string): AppError {
  return badRequest(code, { ...ACCOUNT_RULE_PARAMS, fields: { [field]: code } });
}

export type Auth =
  | {
    type: "none";
    failure?: "session_expired" | "api_key_invalid" | "too_many_requests";
    /** With `too_many_requests`: seconds until the client may try again. */
    retryAfter?: number;
  }
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

/** The admin's Auth; `tokenHash` names the session it came from ("" for none). */
export function adminAuth(username = "admin", tokenHash = ""): Auth {
  return {
    type: "admin",
    id: "admin",
    username,
    tokenHash,
    permissions: ALL_PERMISSIONS,
    basicPath: "/",
  };
}

/** The Auth of a verified API key. */
export function keyAuth(key: ApiKeyRecord): Auth {
  return {
    type: "apikey",
    id: key.id,
    key,
    permissions: key.permissions,
    basicPath: key.basic_path,
  };
}

function retryAfter(err: AppError): number {
  return Number(err.details?.seconds ?? 1);
}

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
    private attempts: AttemptGuard,
    private devices: DeviceTokens,
    private log: (msg: string) => void = console.log,
  ) {}

  /**
   * Creates the admin account on first start. Without ADMIN_USERNAME/ADMIN_PASSWORD a random
   * password is generated and printed once. Throws StartupError when ADMIN_USERNAME or
   * ADMIN_PASSWORD breaks the account rules (shared/account_rules.ts); they are read only here,
   * so an existing account is never checked against them.
   */
  async ensureAdmin(): Promise<void> {
    if ((await this.accounts.getAdmin()).value) return;
    const username = this.config.adminUsername ?? "admin";
    const generated = this.config.adminPassword === null;
    const password = this.config.adminPassword ?? randomToken(12);
    const problem = usernameProblem(username) ?? passwordProblem(password);
    if (problem) {
      const variable = problem === "username_invalid" ? "ADMIN_USERNAME" : "ADMIN_PASSWORD";
      throw new StartupError(
        LANGUAGES.map((lang) => `${variable}: ${errorMessage(problem, lang, ACCOUNT_RULE_PARAMS)}`)
          .join("\n") +
          `\nCubby did not create the admin account. Set ${variable} and start again.`,
      );
    }
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

  /**
   * Checks username and password; returns a new session token and a fresh device token. The
   * attempt is slowed per client address and username, or per device when `deviceToken` is a
   * live token of this username whose device has free attempts left. Throws 401, or 429 when
   * the attempt's slot is too far away (reserved before the check).
   */
  async login(username: string, password: string, clientIp: string, deviceToken?: string) {
    const { value: admin } = await this.accounts.getAdmin();
    const device = this.devices.verify(deviceToken, username);
    const valid = await this.attempts.check(
      "login",
      `${clientIp}|${username.toLowerCase()}`,
      async () =>
        admin !== null && admin.username === username &&
        await verifyPassword(password, admin.password_hash),
      device ? `device|${device}` : undefined,
    );
    if (!valid || !admin) throw unauthorized("invalid_credentials");
    const token = randomToken(32);
    const session = await this.accounts.createSession(sha256Hex(token), admin.session_epoch);
    return {
      token,
      username: admin.username,
      expires_at: session.expires_at,
      device_token: this.devices.issue(admin.username),
    };
  }

  /** Revokes the session of this token. */
  async logout(auth: Auth): Promise<void> {
    if (auth.type === "admin") await this.accounts.deleteSession(auth.tokenHash);
  }

  /**
   * Resolves an Authorization header; never throws for bad credentials. Unknown API keys are
   * limited per client address (`too_many_requests` failure); a valid key always passes.
   */
  async authenticate(header: string | undefined, clientIp: string): Promise<Auth> {
    if (!header) return ANONYMOUS;
    const space = header.indexOf(" ");
    const scheme = space > 0 ? header.slice(0, space).toLowerCase() : "";
    const credential = space > 0 ? header.slice(space + 1).trim() : "";
    if (scheme === "bearer" && credential) return await this.authenticateSession(credential);
    if (scheme === "apikey" && credential) {
      const key = await this.verifyKey(credential, clientIp);
      if (key instanceof AppError) {
        return { type: "none", failure: "too_many_requests", retryAfter: retryAfter(key) };
      }
      if (!key) return { type: "none", failure: "api_key_invalid" };
      return keyAuth(key);
    }
    return ANONYMOUS;
  }

  /**
   * Looks a key up. A valid, unexpired key is accepted whatever any counter says, so nobody can
   * lock a key out; guessing one is what its entropy forbids (about 190 bits generated, at least
   * 32 characters custom). Unknown keys are counted per client address in the same read, and
   * answered 429 once that client has used up its window, which slows a scanner. Returns the
   * record, null for an unknown key, or the 429 to answer.
   */
  private async verifyKey(key: string, clientIp: string): Promise<ApiKeyRecord | null | AppError> {
    const limiter = this.attempts.limiter;
    const { rec, alongside } = await this.keys.lookup(key, [
      limiter.keyOf("apiKeyClient", clientIp),
    ]);
    if (rec) {
      await this.keys.touch(rec.id);
      return rec;
    }
    const refusal = limiter.refusalOf("apiKeyClient", alongside[0]);
    if (refusal) return refusal;
    try {
      await limiter.reserve("apiKeyClient", clientIp);
    } catch (err) {
      if (err instanceof AppError && err.status === 429) return err;
      throw err;
    }
    return null;
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
    return adminAuth(admin.username, tokenHash);
  }

  /**
   * Checks HTTP Basic credentials (WebDAV) without creating a session: an API key given as both
   * user and password (a valid key always passes), or the admin username and password, slowed
   * per client address and username (`webdavLogin`). A successful admin check is remembered for
   * a few minutes, keyed by the stored hash too, so a password change ends it. Throws 401 or 429.
   */
  async authenticateBasic(username: string, password: string, clientIp: string): Promise<Auth> {
    if (username === password) {
      const key = await this.verifyKey(password, clientIp);
      if (key instanceof AppError) throw key;
      if (key) return keyAuth(key);
    }
    const subject = `${clientIp}|${username.toLowerCase()}`;
    // Asked before the memo, so a client that is refused cannot confirm a guess through it. The
    // admin record comes in the same read.
    const { refusal, entries: [adminEntry] } = await this.attempts.slowdown.refusalWith(
      "webdavLogin",
      subject,
      [this.accounts.adminKey()],
    );
    if (refusal) throw refusal;
    const admin = adminEntry.value as AdminAccount | null;
    const memo = admin ? sha256Hex(`${username}\0${password}\0${admin.password_hash}`) : "";
    const hit = this.basicMemo.get(memo);
    if (admin && hit && hit > Date.now()) return adminAuth(admin.username);
    // Clients open many connections at once with the same credentials: identical checks from
    // one address share one attempt, so a correct burst never uses up the free attempts.
    const flight = `${memo}\0${clientIp}`;
    let check = this.basicInFlight.get(flight);
    if (!check) {
      check = this.attempts.check(
        "webdavLogin",
        subject,
        async () =>
          admin !== null && admin.username === username &&
          await verifyPassword(password, admin.password_hash),
      ).finally(() => this.basicInFlight.delete(flight));
      this.basicInFlight.set(flight, check);
    }
    if (!await check || !admin) throw unauthorized("invalid_credentials");
    if (this.basicMemo.size >= 64) this.basicMemo.clear();
    this.basicMemo.set(memo, Date.now() + 5 * 60_000);
    return adminAuth(admin.username);
  }

  private basicMemo = new Map<string, number>();
  private basicInFlight = new Map<string, Promise<boolean>>();

  /**
   * Changes the admin username and/or password after checking the current password (slowed
   * per client address like a login). Every session is revoked. A username equal to the current
   * one is no change: with no new password that is 400 nothing_to_change, and the sessions stay.
   * Throws 400 for invalid input (naming the field in `fields`), 401 for a wrong password, 429
   * when the attempt's slot is too far away.
   */
  async changeAccount(auth: Auth, input: ChangePassword, clientIp: string): Promise<void> {
    if (auth.type !== "admin") throw new AppError("forbidden", 403);
    const entry = await this.accounts.getAdmin();
    const admin = entry.value as AdminAccount;
    const requested = input.newUsername?.trim() || undefined;
    const newUsername = requested !== admin.username ? requested : undefined;
    const newPassword = input.newPassword || undefined;
    const usernameBad = newUsername ? usernameProblem(newUsername) : null;
    if (usernameBad) throw fieldError(usernameBad, "newUsername");
    const passwordBad = newPassword ? passwordProblem(newPassword) : null;
    if (passwordBad) throw fieldError(passwordBad, "newPassword");
    if (!newUsername && !newPassword) throw badRequest("nothing_to_change");
    const subject = `${clientIp}|account`;
    const valid = await this.attempts.check(
      "login",
      subject,
      () => verifyPassword(input.currentPassword, admin.password_hash),
    );
    if (!valid) {
      throw new AppError("wrong_current_password", 401, {
        fields: { currentPassword: "wrong_current_password" },
      });
    }
    if (newPassword && newPassword === input.currentPassword) {
      throw fieldError("password_unchanged", "newPassword");
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
