import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "../../tests/helpers/app.ts";
import { FileRepo } from "./file_repo.ts";
import { keys } from "../kv/keys.ts";
import { migrateShareObjects } from "./share_objects_migration.ts";

Deno.test("migration 2 moves legacy share objects out of uploads/ into the reserved area", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const repo = new FileRepo(t.kv);
  const storage = join(t.dir, "storage");
  // Two shares as an older Cubby wrote them: objects under uploads/, records pointing there.
  const legacy: { slug: string; id: string; old: string }[] = [];
  for (const text of ["first", "second"]) {
    const fd = new FormData();
    fd.set("file", new Blob([text]), `${text}.txt`);
    const res = await t.request("/api/upload", { method: "POST", auth: admin, body: fd });
    const view = (await res.json()).data;
    const old = view.storage_path.replace(/^\.cubby-shares\//, "uploads/");
    await Deno.mkdir(join(storage, old, ".."), { recursive: true });
    await Deno.rename(join(storage, view.storage_path), join(storage, old));
    const entry = await repo.get(view.id);
    assert.equal(
      await repo.update(
        entry.value!,
        { ...entry.value!, storage_path: old },
        entry.versionstamp!,
        false,
      ),
      "ok",
    );
    legacy.push({ slug: view.slug, id: view.id, old });
  }
  // A crash after the first object moved but before its record switched.
  const half = legacy[1];
  const target = half.old.replace(/^uploads\//, ".cubby-shares/");
  await Deno.rename(join(storage, half.old), join(storage, target));
  await t.kv.delete(keys.migrations(2));

  const logs: string[] = [];
  const moved = await migrateShareObjects(
    t.kv,
    repo,
    t.services.storageConfigs,
    (m) => logs.push(m),
  );
  assert.equal(moved, 2);
  assert.match(logs.join("\n"), /Migration 2 applied: 2 share object/);
  for (const [i, l] of legacy.entries()) {
    const rec = (await repo.get(l.id)).value!;
    assert.ok(rec.storage_path.startsWith(".cubby-shares/"), rec.storage_path);
    const res = await t.request(`/api/file-download/${l.slug}`);
    assert.equal(await res.text(), ["first", "second"][i]);
  }
  const left: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await walk(join(dir, e.name));
      else left.push(e.name);
    }
  };
  await walk(join(storage, "uploads")).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  assert.deepEqual(left, [], "no object stays under uploads/");
  // Recorded: a second run does nothing.
  assert.equal(
    await migrateShareObjects(t.kv, repo, t.services.storageConfigs, () => {}),
    0,
  );
  assert.notEqual((await t.kv.get(keys.migrations(2))).versionstamp, null);
});
