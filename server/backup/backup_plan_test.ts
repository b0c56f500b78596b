/** Restore plans against a real app's KV: exact writes, nothing written, merge collisions. */
import assert from "node:assert/strict";
import { planRestore } from "./backup_plan.ts";
import { restoreReposOn } from "./backup_repos.ts";
import { backupChecksum, type BackupData, readCubbyBackup } from "./backup_format.ts";
import { AppError } from "../errors.ts";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";

/**
 * Every key and versionstamp of a KV, to tell that nothing was written. A new mount's search
 * index is built in the background meanwhile (search_*, with its cache epoch), so those are
 * left out: a restore plan has nothing to do with them.
 */
async function snapshot(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    const top = String(e.key[0]);
    if (top.startsWith("search_") || top === "cache_epochs") continue;
    out.push(`${JSON.stringify(e.key)}@${e.versionstamp}`);
  }
  return out;
}

/** A backup of `t`'s modules, read back as a restore would. */
async function backupOf(
  t: TestApp,
  modules: Parameters<TestApp["services"]["backup"]["create"]>[0],
) {
  const { file } = await t.services.backup.create(modules);
  return await readCubbyBackup(file.metadata, file.data as Record<string, unknown>);
}

/** The same backup with its data changed (checksum and counts made to match). */
async function edited(
  parsed: Awaited<ReturnType<typeof backupOf>>,
  change: (d: BackupData) => void,
) {
  const data = structuredClone(parsed.data);
  change(data);
  const counts = Object.fromEntries(
    Object.entries(data).map(([k, v]) => [k, (v as unknown[]).length]),
  );
  return {
    ...parsed,
    data,
    info: { ...parsed.info, counts, checksum: await backupChecksum(data) },
  };
}

async function codeOf(p: Promise<unknown>) {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return [err.code, err.details?.reason, err.details?.path];
}

Deno.test("plan: merge skips what collides and says why; planning writes nothing", async () => {
  await using a = await createTestApp();
  await a.createKey({ text: true }, { name: "shared-name" });
  await a.createKey({ text: true }, { name: "only-in-a" });
  await a.createMount("/photos", { name: "photos" });
  const parsed = await backupOf(a, ["key_management", "mount_management"]);

  await using b = await createTestApp();
  await b.createKey({ text: true }, { name: "shared-name" });
  await b.createMount("/photos/2026", { name: "nested" });
  const before = await snapshot(b.kv);
  const plan = await planRestore(restoreReposOn(b.kv), parsed, "merge", null);
  assert.deepEqual(await snapshot(b.kv), before, "a plan writes nothing");
  const reasons = plan.report.skipped.map((s) => [s.module, s.reason]).sort();
  assert.deepEqual(reasons, [
    ["key_management", "name_exists"],
    ["mount_management", "path_exists"],
  ]);
  assert.equal(plan.report.modules.key_management?.restored, 1);
  assert.equal(plan.report.modules.mount_management?.restored, 0);
  assert.ok(plan.mutations.length > 0);
});

Deno.test("plan: overwrite removes what a module holds and counts it", async () => {
  await using a = await createTestApp();
  await a.createKey({ text: true }, { name: "from-a" });
  const parsed = await backupOf(a, ["key_management"]);
  await using b = await createTestApp();
  await b.createKey({ text: true }, { name: "b1" });
  await b.createKey({ text: true }, { name: "b2" });
  const plan = await planRestore(restoreReposOn(b.kv), parsed, "overwrite", null);
  assert.deepEqual(plan.report.modules.key_management, { restored: 1, skipped: 0, removed: 2 });
  assert.ok(plan.mutations.some((m) => "delete" in m && m.key[0] === "api_keys"));
});

Deno.test("plan: duplicate records and overlapping mounts are refused as invalid files", async () => {
  await using a = await createTestApp();
  await a.createKey({ text: true }, { name: "k" });
  await a.createMount("/a", { name: "a" });
  const parsed = await backupOf(a, ["key_management", "mount_management"]);
  const repos = restoreReposOn(a.kv);
  const twice = await edited(parsed, (d) => d.key_management!.push({ ...d.key_management![0] }));
  assert.deepEqual(await codeOf(planRestore(repos, twice, "overwrite", null)), [
    "backup_invalid_file",
    "duplicate",
    "data.key_management.id",
  ]);
  const nested = await edited(
    parsed,
    (d) => d.mount_management!.push({ ...d.mount_management![0], id: "other", mount_path: "/a/b" }),
  );
  const [code, reason] = await codeOf(planRestore(repos, nested, "overwrite", null));
  assert.deepEqual([code, reason], ["backup_invalid_file", "overlap"]);
});
