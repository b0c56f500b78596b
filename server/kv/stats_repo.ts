/**
 * Dashboard counters. KV `sum` only adds to a u64, so each total is kept as two monotonic
 * counters, `stats_totals/{kind}/created` and `.../deleted`, and read as their difference. The
 * repos of pastes, files, API keys and storage configs add these sums inside the same atomic
 * commit that creates or deletes a record (with the record's versionstamp checked on delete), so
 * a counter never drifts from the data. Pastes and files also sum `stats_daily/{day}/{kind}` on
 * create, for the activity chart. Sums never conflict, so counting adds no contention.
 *
 * `recount()` rebuilds the counters from the records once (migration 1, and after a restore):
 * it reads the counters first, scans, and commits with checks on what it read, so a write that
 * lands during the scan makes it start over instead of being counted twice.
 */
import { keys } from "./keys.ts";

/** The entities the dashboard counts. */
export const STAT_KINDS = ["pastes", "files", "api_keys", "storage_configs"] as const;
export type StatKind = typeof STAT_KINDS[number];
/** The entities with a per-day activity counter. */
export const DAILY_KINDS = ["pastes", "files"] as const;
export type DailyKind = typeof DAILY_KINDS[number];

/** How many recent days a recount fills in the activity counters. */
export const RECOUNT_DAYS = 30;

const DAY_MS = 86_400_000;
/** Deno KV reads at most 10 keys per getMany. */
const GET_MANY = 10;

/** The UTC day (`yyyy-mm-dd`) of a time. */
export function dayOf(time: number | string | Date): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The last `n` UTC days, oldest first, ending with the day of `now`. */
export function lastDays(n: number, now = Date.now()): string[] {
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(dayOf(now - i * DAY_MS));
  return out;
}

/** Adds the counter sums of one created record (and its day, for pastes and files) to `op`. */
export function countCreated(
  op: Deno.AtomicOperation,
  kind: StatKind,
  createdAt: string | number = Date.now(),
): Deno.AtomicOperation {
  op.sum(keys.statsTotals(kind, "created"), 1n);
  if ((DAILY_KINDS as readonly string[]).includes(kind)) {
    op.sum(keys.statsDaily(dayOf(createdAt), kind), 1n);
  }
  return op;
}

/** Adds the counter sum of one deleted record to `op`. */
export function countDeleted(op: Deno.AtomicOperation, kind: StatKind): Deno.AtomicOperation {
  return op.sum(keys.statsTotals(kind, "deleted"), 1n);
}

const u64 = (e: Deno.KvEntryMaybe<unknown>) => e.value instanceof Deno.KvU64 ? e.value.value : 0n;

/** The current total of one kind (never below 0): its two counters, one read. */
export async function readTotal(kv: Deno.Kv, kind: StatKind): Promise<number> {
  const [created, deleted] = await kv.getMany([
    keys.statsTotals(kind, "created"),
    keys.statsTotals(kind, "deleted"),
  ]);
  const diff = u64(created) - u64(deleted);
  return diff > 0n ? Number(diff) : 0;
}

/** Reads many keys, 10 at a time, in order. */
async function readMany(kv: Deno.Kv, list: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<unknown>[]> {
  const out: Deno.KvEntryMaybe<unknown>[] = [];
  for (let i = 0; i < list.length; i += GET_MANY) {
    out.push(...await kv.getMany(list.slice(i, i + GET_MANY)));
  }
  return out;
}

/** Counts found by a scan of the records. */
type Scan = { totals: Record<StatKind, number>; daily: Map<string, number> };

/** Day counters raised per commit (a remote KV takes at most 10 checks per commit). */
const DAY_BATCH = 10;

export class StatsRepo {
  constructor(private kv: Deno.Kv) {}

  /** Current totals per kind (never below 0). */
  async totals(): Promise<Record<StatKind, number>> {
    const list = STAT_KINDS.flatMap((k) => [
      keys.statsTotals(k, "created"),
      keys.statsTotals(k, "deleted"),
    ]);
    const entries = await readMany(this.kv, list);
    const out = {} as Record<StatKind, number>;
    STAT_KINDS.forEach((k, i) => {
      const diff = u64(entries[2 * i]) - u64(entries[2 * i + 1]);
      out[k] = diff > 0n ? Number(diff) : 0;
    });
    return out;
  }

  /** Created counts per day for the given days, in order. */
  async daily(days: string[]): Promise<Array<Record<DailyKind, number>>> {
    const list = days.flatMap((d) => DAILY_KINDS.map((k) => keys.statsDaily(d, k)));
    const entries = await readMany(this.kv, list);
    return days.map((_, i) => {
      const row = {} as Record<DailyKind, number>;
      DAILY_KINDS.forEach((k, j) => row[k] = Number(u64(entries[i * DAILY_KINDS.length + j])));
      return row;
    });
  }

  /** Bytes stored per storage config id, from the usage counters kept by uploads. */
  async usage(configIds: string[]): Promise<Map<string, number>> {
    const entries = await readMany(this.kv, configIds.map((id) => keys.storageUsage(id)));
    return new Map(configIds.map((id, i) => [id, Number(u64(entries[i]))]));
  }

  /** True when migration `n` has been recorded. */
  async hasMigration(n: number): Promise<boolean> {
    return (await this.kv.get(keys.migrations(n))).versionstamp !== null;
  }

  /**
   * Sets every total from a scan of the records, and raises the activity of the last
   * RECOUNT_DAYS days to what the scan finds. With `migration`, records that migration in the
   * same commit as the totals and does nothing if it is already recorded. Returns the totals
   * written, or null when it was recorded already; throws when writes keep landing during the
   * scan.
   *
   * A remote KV takes at most 10 checks per commit, so the totals (8 counters, plus the
   * migration) are one checked commit and the days follow in batches of their own. A day's
   * counter is only ever raised, so each batch stands alone.
   */
  async recount(
    migration?: { n: number; name: string },
    now = Date.now(),
  ): Promise<Record<StatKind, number> | null> {
    const days = lastDays(RECOUNT_DAYS, now);
    const totalKeys = STAT_KINDS.flatMap((k) => [
      keys.statsTotals(k, "created"),
      keys.statsTotals(k, "deleted"),
    ]);
    const dailyKeys = days.flatMap((d) => DAILY_KINDS.map((k) => keys.statsDaily(d, k)));
    for (let attempt = 0; attempt < 5; attempt++) {
      if (migration && await this.hasMigration(migration.n)) return null;
      const read = await readMany(this.kv, totalKeys);
      const scan = await this.scan(new Set(days));
      const op = this.kv.atomic();
      for (const e of read) op.check(e);
      STAT_KINDS.forEach((k, i) => {
        // Keep `deleted` as it is and move `created` so that the difference is the scan's count.
        const deleted = u64(read[2 * i + 1]);
        op.set(totalKeys[2 * i], new Deno.KvU64(deleted + BigInt(scan.totals[k])));
      });
      if (migration) {
        op.check({ key: keys.migrations(migration.n), versionstamp: null })
          .set(keys.migrations(migration.n), {
            name: migration.name,
            applied_at: new Date().toISOString(),
          });
      }
      if (!(await op.commit()).ok) continue;
      for (let i = 0; i < dailyKeys.length; i += DAY_BATCH) {
        await this.raiseDays(dailyKeys.slice(i, i + DAY_BATCH), scan.daily);
      }
      return scan.totals;
    }
    throw new Error("Cannot recount the dashboard counters: records keep changing");
  }

  /** Raises day counters to what a scan counted (a day also counts records deleted since). */
  private async raiseDays(dayKeys: Deno.KvKey[], counted: Map<string, number>): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const read = await readMany(this.kv, dayKeys);
      const op = this.kv.atomic();
      let raised = 0;
      dayKeys.forEach((key, i) => {
        const n = BigInt(counted.get(`${String(key[1])}|${String(key[2])}`) ?? 0);
        if (n <= u64(read[i])) return;
        op.check(read[i]).set(key, new Deno.KvU64(n));
        raised++;
      });
      if (raised === 0 || (await op.commit()).ok) return;
    }
    throw new Error("Cannot recount the dashboard's daily activity: records keep changing");
  }

  /** Counts every record once (a full scan: only for recount). */
  private async scan(days: Set<string>): Promise<Scan> {
    const totals = { pastes: 0, files: 0, api_keys: 0, storage_configs: 0 };
    const daily = new Map<string, number>();
    const prefixes: [StatKind, Deno.KvKey][] = [
      ["pastes", keys.pastesPrefix()],
      ["files", keys.filesPrefix()],
      ["api_keys", keys.apiKeysPrefix()],
      ["storage_configs", keys.storageConfigsPrefix()],
    ];
    for (const [kind, prefix] of prefixes) {
      const iter = this.kv.list<{ created_at?: string }>({ prefix }, { batchSize: 500 });
      for await (const e of iter) {
        totals[kind]++;
        const created = Date.parse(e.value?.created_at ?? "");
        if (kind !== "pastes" && kind !== "files" || !Number.isFinite(created)) continue;
        const day = dayOf(created);
        if (days.has(day)) daily.set(`${day}|${kind}`, (daily.get(`${day}|${kind}`) ?? 0) + 1);
      }
    }
    return { totals, daily };
  }
}
