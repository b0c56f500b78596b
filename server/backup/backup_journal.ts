/**
 * All-or-nothing writes larger than one KV commit (800 KiB, 1000 mutations), for restores.
 *
 * A restore is a fixed list of mutations. It runs in four steps, each in many small commits:
 *
 * 1. `begin`: the marker `["restore_journal"]` is created with a `versionstamp: null` check,
 *    which also makes it a lock: one restore at a time, across every instance.
 * 2. `capture`: the current value of every key the restore will touch (or the fact that it is
 *    absent) is copied into `["restore_undo", n]` (backup_undo.ts).
 * 3. `apply`: the marker moves to "applying", then the mutations are written.
 * 4. `commit`: the marker moves to "committed", the undo area is cleared, the marker deleted.
 *
 * Every commit also rewrites the marker (progress and heartbeat) checked against the
 * versionstamp it last wrote, so a process that lost the marker stops at once; a timer keeps
 * the heartbeat going between commits (while a restore is planned, for instance). Several
 * processes may share one KV (a remote KV, or the CLI next to the server on a local file), so a
 * marker is only treated as dead once its heartbeat is older than JOURNAL_STALE_MS. Then
 * `recover()` reads it: "capturing" means nothing was applied (drop the undo area); "applying"
 * or "rolling_back" means the undo area is written back (idempotent, so a crash during a
 * rollback is repaired by rolling back again); "committed" only needs cleaning.
 */
import { keys } from "../kv/keys.ts";
import { touchesMounts } from "../kv/mount_repo.ts";
import { Batcher, type Mutation, sizeOf } from "./backup_batches.ts";
import { captureUndo, clearUndo, hasUndo, undoMutations } from "./backup_undo.ts";
import type { BackupModule, RestoreMode, RestoreStatus } from "../../shared/schemas/backup.ts";

export type { Mutation };

export type JournalPhase = "capturing" | "applying" | "committed" | "rolling_back";

export type JournalMarker = {
  id: string;
  phase: JournalPhase;
  mode: RestoreMode;
  modules: BackupModule[];
  total: number;
  done: number;
  undo_entries: number;
  started_at: string;
  heartbeat_at: string;
};

/** A marker whose heartbeat is older than this belongs to a dead process. */
export const JOURNAL_STALE_MS = 15_000;
/** How often the owner of the marker proves it is alive, at the least. */
const HEARTBEAT_MS = 2_000;

/** Thrown when another process took the marker over (it is rolling this restore back). */
export class JournalLostError extends Error {
  constructor() {
    super("The restore journal was taken over by another process");
  }
}

export class RestoreJournal {
  private stamp: string | null = null;
  private marker: JournalMarker | null = null;
  /** Commits run one after another (the heartbeat timer commits too). */
  private chain: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private kv: Deno.Kv) {}

  /** Reads the marker of a restore under way (or of one that died). */
  getMarker() {
    return this.kv.get<JournalMarker>(keys.restoreJournal());
  }

  /** The marker as the status endpoint shows it. */
  async status(): Promise<RestoreStatus> {
    const { value } = await this.getMarker();
    // Without a marker the undo area must be empty: look for a single entry.
    const undo = value ? value.undo_entries : (await hasUndo(this.kv) ? 1 : 0);
    return {
      restoring: value !== null,
      phase: value?.phase ?? null,
      done: value?.done ?? 0,
      total: value?.total ?? 0,
      started_at: value?.started_at ?? null,
      undo_entries: undo,
    };
  }

  /** Takes the lock; false when a marker exists. */
  async begin(id: string, mode: RestoreMode, modules: BackupModule[], total: number) {
    const now = new Date().toISOString();
    const marker: JournalMarker = {
      id,
      phase: "capturing",
      mode,
      modules,
      total,
      done: 0,
      undo_entries: 0,
      started_at: now,
      heartbeat_at: now,
    };
    const res = await this.kv.atomic().check({ key: keys.restoreJournal(), versionstamp: null })
      .set(keys.restoreJournal(), marker).commit();
    if (!res.ok) return false;
    this.marker = marker;
    this.stamp = res.versionstamp;
    this.startHeartbeat();
    // Leftovers can only come from outside this protocol; only the lock holder may clear them.
    await clearUndo(this.kv);
    return true;
  }

  /**
   * Captures, applies and commits the mutations after `begin`. On a failure before the apply
   * the undo area is dropped; during the apply everything is rolled back. If the process dies,
   * `recover()` finishes the job. Throws the original error after cleaning up.
   */
  async run(mutations: Mutation[]): Promise<void> {
    this.marker!.total = mutations.length;
    await this.step(() => this.capture(mutations), () => this.finish());
    await this.step(() => this.apply(mutations), () => this.rollback());
    await this.setPhase("committed", mutations.length);
    await this.finish();
  }

  /**
   * Runs one step of `run`; when it fails, `undo` cleans up and the error is thrown again. A
   * lost marker is not ours to clean: its new owner rolls back, so only the heartbeat stops.
   */
  private async step(fn: () => Promise<void>, undo: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      if (err instanceof JournalLostError) this.stopHeartbeat();
      else await undo();
      throw err;
    }
  }

  /** Gives the lock back before anything was captured (e.g. the plan was refused). */
  async release(): Promise<void> {
    if (this.marker?.phase === "capturing") await this.finish();
  }

  /** Copies the current value (or absence) of every key the mutations touch. */
  private async capture(mutations: Mutation[]): Promise<void> {
    const batch = this.batcher();
    const n = await captureUndo(this.kv, mutations, batch, (done) => this.marker!.done = done);
    await batch.flush();
    this.marker!.undo_entries = n;
  }

  /** Writes the mutations, in order, after marking the journal as applying. */
  private async apply(mutations: Mutation[]): Promise<void> {
    await this.setPhase("applying", 0);
    const batch = this.batcher();
    for (const m of mutations) {
      this.marker!.done++;
      await batch.add(m, sizeOf(m.key) + ("value" in m ? sizeOf(m.value) : 0));
    }
    await batch.flush();
  }

  /** Puts every captured value back, then drops the undo area and the marker. */
  private async rollback(): Promise<void> {
    await this.setPhase("rolling_back", 0);
    const batch = this.batcher();
    for await (const group of undoMutations(this.kv)) {
      this.marker!.done++;
      for (const m of group) {
        await batch.add(m, sizeOf(m.key) + ("value" in m ? sizeOf(m.value) : 0));
      }
    }
    await batch.flush();
    await this.finish();
  }

  /**
   * Repairs a restore that died: rolls it back, or finishes its clean-up. A marker with a
   * recent heartbeat is left alone, since its owner may be alive ("busy"). Returns what was
   * found and done.
   */
  async recover(): Promise<"none" | "busy" | JournalPhase> {
    const entry = await this.getMarker();
    if (!entry.value) return "none";
    if (Date.now() - Date.parse(entry.value.heartbeat_at) < JOURNAL_STALE_MS) return "busy";
    // Taking the marker over (a checked write) stops a late owner at its next commit.
    const taken = await this.kv.atomic().check(entry)
      .set(keys.restoreJournal(), { ...entry.value, heartbeat_at: new Date().toISOString() })
      .commit();
    if (!taken.ok) return "busy";
    this.marker = { ...entry.value };
    this.stamp = taken.versionstamp;
    this.startHeartbeat();
    const phase = entry.value.phase;
    try {
      if (phase === "applying" || phase === "rolling_back") await this.rollback();
      else await this.finish();
    } finally {
      this.stopHeartbeat();
    }
    return phase;
  }

  private async setPhase(phase: JournalPhase, done: number) {
    this.marker!.phase = phase;
    this.marker!.done = done;
    await this.commitBatch([]);
  }

  /** Clears the undo area, then the marker (checked: a lost marker is not deleted). */
  private async finish(): Promise<void> {
    this.stopHeartbeat();
    await this.chain;
    await clearUndo(this.kv);
    await this.kv.atomic().check({ key: keys.restoreJournal(), versionstamp: this.stamp })
      .delete(keys.restoreJournal()).commit();
    this.marker = null;
    this.stamp = null;
  }

  private startHeartbeat() {
    this.stopHeartbeat();
    const timer = setInterval(() => this.commitBatch([]).catch(() => {}), HEARTBEAT_MS);
    Deno.unrefTimer(timer);
    this.timer = timer;
  }

  private stopHeartbeat() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Queues one commit behind the others (see writeBatch). */
  private commitBatch(mutations: Mutation[]): Promise<void> {
    const next = this.chain.then(() => this.writeBatch(mutations));
    this.chain = next.catch(() => {});
    return next;
  }

  /** One commit: the mutations plus the marker's progress, checked against our last write. */
  private async writeBatch(mutations: Mutation[]): Promise<void> {
    const op = this.kv.atomic().check({ key: keys.restoreJournal(), versionstamp: this.stamp });
    for (const m of mutations) {
      if ("delete" in m) op.delete(m.key);
      else op.set(m.key, m.value);
    }
    // Mount records are kept in memory while their epoch stands (mount_repo.ts).
    if (mutations.some((m) => touchesMounts(m.key))) op.set(keys.mountsEpoch(), Date.now());
    this.marker!.heartbeat_at = new Date().toISOString();
    op.set(keys.restoreJournal(), this.marker);
    const res = await op.commit();
    if (!res.ok) throw new JournalLostError();
    this.stamp = res.versionstamp;
  }

  /** Groups mutations into commits that respect the KV limits, each one with the marker. */
  private batcher(): Batcher {
    return new Batcher((list) => this.commitBatch(list));
  }
}
