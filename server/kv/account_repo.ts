/** The admin account and its sessions. Sessions carry the account's epoch: bumping it revokes all. */
import { keys } from "./keys.ts";
import { SESSION_TTL_MS } from "../../shared/constants.ts";

export type AdminAccount = {
  username: string;
  password_hash: string;
  /** Incremented by every account change; sessions of an older epoch are invalid. */
  session_epoch: number;
  created_at: string;
  updated_at: string;
};

export type Session = { epoch: number; created_at: string; expires_at: string };

export class AccountRepo {
  constructor(private kv: Deno.Kv) {}

  /** Reads the admin account, with its versionstamp for a checked update. */
  getAdmin() {
    return this.kv.get<AdminAccount>(keys.admin());
  }

  /** The key of the admin account, to read it along with other records in one `getMany`. */
  adminKey(): Deno.KvKey {
    return keys.admin();
  }

  /** Creates the admin account only if none exists; returns false when one already did. */
  async createAdminIfMissing(account: AdminAccount): Promise<boolean> {
    const res = await this.kv.atomic().check({ key: keys.admin(), versionstamp: null })
      .set(keys.admin(), account).commit();
    return res.ok;
  }

  /** Replaces the admin account if it is unchanged since `versionstamp`. */
  async updateAdmin(account: AdminAccount, versionstamp: string): Promise<boolean> {
    const res = await this.kv.atomic().check({ key: keys.admin(), versionstamp })
      .set(keys.admin(), account).commit();
    return res.ok;
  }

  /** Stores a session under the hash of its token, expiring after 24 h. */
  async createSession(tokenHash: string, epoch: number): Promise<Session> {
    const now = Date.now();
    const session: Session = {
      epoch,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + SESSION_TTL_MS).toISOString(),
    };
    await this.kv.set(keys.sessions(tokenHash), session, { expireIn: SESSION_TTL_MS });
    return session;
  }

  /** Reads a session by token hash; null when missing or past its expiry. */
  async getSession(tokenHash: string): Promise<Session | null> {
    const { value } = await this.kv.get<Session>(keys.sessions(tokenHash));
    if (!value || Date.parse(value.expires_at) <= Date.now()) return null;
    return value;
  }

  /** Deletes one session. */
  async deleteSession(tokenHash: string): Promise<void> {
    await this.kv.delete(keys.sessions(tokenHash));
  }
}
