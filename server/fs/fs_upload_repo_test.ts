import assert from "node:assert/strict";
import { FS_UPLOAD_TTL_MS, type FsUploadRecord, FsUploadRepo } from "./fs_upload_repo.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

function upload(id: string): FsUploadRecord {
  return {
    upload_id: id,
    mount_id: "m1",
    storage_config_id: "cfg",
    key: `docs/${id}.bin`,
    path: `/m/docs/${id}.bin`,
    size: 10 << 20,
    part_size: 5 << 20,
    content_type: "application/octet-stream",
    created_by: "admin",
    created_at: "2026-01-01T00:00:00.000Z",
  };
}

Deno.test("fs uploads: recorded, read one or many (more than one read takes), forgotten", async () => {
  await using t = await tempKv();
  const repo = new FsUploadRepo(t.kv);
  assert.equal(FS_UPLOAD_TTL_MS, 86_400_000);
  const ids = Array.from({ length: 12 }, (_, i) => `u${i}`);
  for (const id of ids.slice(0, 11)) await repo.put(upload(id));
  assert.deepEqual(await repo.get("u3"), upload("u3"));
  assert.equal(await repo.get("nope"), null);
  const many = await repo.getMany(["u10", "nope", ...ids]);
  assert.equal(many.length, 14);
  assert.equal(many[0]?.upload_id, "u10");
  assert.equal(many[1], null);
  assert.equal(many[13], null, "u11 was never put");
  assert.deepEqual(many.slice(2, 13).map((r) => r?.upload_id), ids.slice(0, 11));
  await repo.delete("u3");
  assert.equal(await repo.get("u3"), null);
  assert.deepEqual(await repo.getMany([]), []);
});
