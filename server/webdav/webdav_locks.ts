/**
 * WebDAV write locks (RFC 4918 §6-7): exclusive and shared, depth 0 or infinity, with
 * `opaquelocktoken:` tokens, kept in KV through WebdavLockRepo. A write must submit the token
 * of every lock that covers what it changes: the resource, its subtree for deep operations,
 * and the parent collection when members are added or removed.
 */
import type { LockRecord, WebdavLockRepo } from "./webdav_lock_repo.ts";
import { escapeXml } from "./webdav_xml.ts";
import { davHref } from "./webdav_paths.ts";

export const DEFAULT_LOCK_SECONDS = 3600;
const MAX_LOCK_SECONDS = 7 * 24 * 3600;

/** What a write changes: a resource in a mount, with or without its subtree and parent. */
export type LockTarget = { mountId: string; key: string; deep: boolean; membership: boolean };

function below(key: string, root: string): boolean {
  return root === "" ? key !== "" : key.startsWith(root + "/");
}

/** Locks that cover the resource at `key`: rooted there, or above it with depth infinity. */
export function coveringLocks(locks: LockRecord[], key: string): LockRecord[] {
  return locks.filter((l) => l.root === key || (l.depth === "infinity" && below(key, l.root)));
}

/** The timeout a client asked for (`Second-n` or `Infinite`), clamped to 1 s..7 days. */
export function parseTimeout(header: string | null): number {
  for (const part of (header ?? "").split(",").map((s) => s.trim().toLowerCase())) {
    if (part === "infinite") return MAX_LOCK_SECONDS;
    const m = /^second-(\d+)$/.exec(part);
    if (m) return Math.max(1, Math.min(MAX_LOCK_SECONDS, Number(m[1])));
  }
  return DEFAULT_LOCK_SECONDS;
}

/** The `<D:activelock>` element of a lock; `mountPath` gives the lock root's href. */
export function activeLockXml(lock: LockRecord, mountPath: string, collection: boolean): string {
  const rootPath = lock.root ? `${mountPath}/${lock.root}` : mountPath;
  const seconds = Math.max(0, Math.round((lock.expires_at - Date.now()) / 1000));
  return `<D:activelock><D:locktype><D:write/></D:locktype>` +
    `<D:lockscope><D:${lock.scope}/></D:lockscope><D:depth>${lock.depth}</D:depth>` +
    (lock.owner ? `<D:owner>${lock.owner}</D:owner>` : "") +
    `<D:timeout>Second-${seconds}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(davHref(rootPath, collection))}</D:href></D:lockroot>` +
    `</D:activelock>`;
}

/** The supportedlock property: exclusive and shared write locks. */
export const SUPPORTED_LOCK_XML = "<D:supportedlock>" +
  ["exclusive", "shared"].map((s) =>
    `<D:lockentry><D:lockscope><D:${s}/></D:lockscope>` +
    `<D:locktype><D:write/></D:locktype></D:lockentry>`
  ).join("") + "</D:supportedlock>";

export class WebdavLocks {
  constructor(private repo: WebdavLockRepo) {}

  /** The live locks of a mount. */
  async list(mountId: string): Promise<LockRecord[]> {
    return await this.repo.live(mountId);
  }

  /**
   * The first lock whose token the caller did not submit (so the write must answer 423), or
   * null when every lock on the targets is satisfied. A shared lock is satisfied by the token
   * of any shared lock on the same root.
   */
  async unsatisfied(
    targets: LockTarget[],
    submitted: Set<string>,
    principal: string,
  ): Promise<LockRecord | null> {
    const byMount = new Map<string, LockRecord[]>();
    for (const t of targets) {
      if (!byMount.has(t.mountId)) byMount.set(t.mountId, await this.list(t.mountId));
      const locks = byMount.get(t.mountId)!;
      if (locks.length === 0) continue;
      const relevant = coveringLocks(locks, t.key);
      if (t.deep) relevant.push(...locks.filter((l) => below(l.root, t.key)));
      if (t.membership && t.key !== "") {
        const parent = t.key.includes("/") ? t.key.slice(0, t.key.lastIndexOf("/")) : "";
        relevant.push(...locks.filter((l) => l.root === parent && l.depth === "0"));
      }
      const held = (l: LockRecord) => submitted.has(l.token) && l.principal === principal;
      for (const l of relevant) {
        if (held(l)) continue;
        if (
          l.scope === "shared" &&
          relevant.some((o) => o.scope === "shared" && o.root === l.root && held(o))
        ) {
          continue;
        }
        return l;
      }
    }
    return null;
  }

  /**
   * Takes a new lock unless a conflicting one exists; returns the lock, or the conflicting
   * lock as `{conflict}`. Retries when another lock was added meanwhile.
   */
  async create(
    input: Omit<LockRecord, "token" | "expires_at">,
  ): Promise<{ lock: LockRecord } | { conflict: LockRecord }> {
    for (let attempt = 0;; attempt++) {
      const { locks, epoch } = await this.repo.list(input.mount_id);
      const candidates = coveringLocks(locks, input.root);
      if (input.depth === "infinity") {
        candidates.push(...locks.filter((l) => below(l.root, input.root)));
      }
      const conflict = candidates.find((l) =>
        l.scope === "exclusive" || input.scope === "exclusive"
      );
      if (conflict) return { conflict };
      const lock: LockRecord = {
        ...input,
        token: `opaquelocktoken:${crypto.randomUUID()}`,
        expires_at: Date.now() + input.timeout_s * 1000,
      };
      if (await this.repo.create(lock, epoch)) return { lock };
      if (attempt > 20) throw new Error("webdav lock: too many concurrent lock attempts");
    }
  }

  /** Extends a lock by a new timeout; null when it is no longer held. */
  async refresh(lock: LockRecord, timeoutS: number): Promise<LockRecord | null> {
    const next = { ...lock, timeout_s: timeoutS, expires_at: Date.now() + timeoutS * 1000 };
    return await this.repo.refresh(next) ? next : null;
  }

  /** Removes a lock. */
  async remove(lock: LockRecord): Promise<void> {
    await this.repo.delete(lock.mount_id, lock.token);
  }

  /** Removes the locks rooted at `key` or below it (the resources are gone). */
  async removeUnder(mountId: string, key: string): Promise<void> {
    for (const l of await this.list(mountId)) {
      if (l.root === key || below(l.root, key)) await this.repo.delete(mountId, l.token);
    }
  }
}
