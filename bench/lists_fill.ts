/**
 * Fills a bench app's KV for bench/lists.ts: pastes and file share records written straight
 * through their repos (one commit each, as a create makes, several in flight), API keys and
 * mounts through their services.
 */
import { ulid } from "ulid";
import type { TestApp } from "../tests/helpers/app.ts";
import { pasteRecord } from "../tests/helpers/records.ts";
import { PasteRepo } from "../server/shares/paste_repo.ts";
import { type FileRecord, FileRepo } from "../server/shares/file_repo.ts";
import { previewOf } from "../server/shares/paste_views.ts";
import { randomBase62 } from "../server/lib/crypto.ts";
import { adminAuth } from "../server/services/auth.ts";
import { ApiKeyCreateSchema } from "../shared/schemas/api_keys.ts";
import { MountCreateSchema } from "../shared/schemas/mounts.ts";

/** Words of remarks and names; "invoice" is in about one share in 16 (the common search). */
export const WORDS = [
  "report",
  "invoice",
  "notes",
  "draft",
  "meeting",
  "config",
  "log",
  "backup",
  "测试",
  "会议记录",
  "清单",
  "todo",
  "release",
  "build",
  "error",
  "trace",
];

const IN_FLIGHT = 16;

/** Who writes the shares: the admin and one API key (every second share is the key's). */
export type Writers = { keyCreator: string; configId: string };

/** Writes shares `from` to `to` (exclusive): a paste and a file share each; returns the slugs. */
export async function fillShares(t: TestApp, w: Writers, from: number, to: number) {
  const pastes = new PasteRepo(t.kv);
  const files = new FileRepo(t.kv);
  const slugs: string[] = [];
  const one = async (i: number) => {
    const by = i % 2 === 1 ? w.keyCreator : "admin";
    const word = WORDS[i % WORDS.length];
    const remark = i % 3 === 0 ? `${word} ${WORDS[(i * 7) % WORDS.length]} ${i}` : null;
    const text = `${word} #${i}\n${"lorem ipsum dolor sit amet ".repeat(8 + (i % 24))}`;
    const stored = await pastes.storeContent(text);
    const now = new Date().toISOString();
    const slug = randomBase62(6);
    const res = await pastes.insert(
      pasteRecord(ulid(), slug, stored.ref, previewOf(text), { remark, created_by: by }),
      stored.firstChunk,
    );
    if (res !== "ok") return; // a slug collision: one paste fewer
    slugs.push(slug);
    const file: FileRecord = {
      id: ulid(),
      slug: randomBase62(7),
      filename: `${word}-${i}.${["pdf", "jpg", "txt", "zip"][i % 4]}`,
      size: 1000 + i,
      mimetype: "application/octet-stream",
      remark: remark ?? "",
      password_hash: null,
      expires_at: null,
      max_views: 0,
      use_proxy: false,
      storage_config_id: w.configId,
      storage_path: `.cubby-shares/bench/${i}`,
      etag: "",
      created_at: now,
      updated_at: now,
      created_by: by,
      owns_object: false,
    };
    await files.create(file);
  };
  for (let i = from; i < to; i += IN_FLIGHT) {
    await Promise.all(
      Array.from({ length: Math.min(IN_FLIGHT, to - i) }, (_, j) => one(i + j)),
    );
  }
  return slugs;
}

/** Creates API keys and mounts up to `n` of each through their services. */
export async function fillKeysAndMounts(t: TestApp, configId: string, from: number, n: number) {
  for (let i = from; i < n; i++) {
    await t.services.apiKeys.create(ApiKeyCreateSchema.parse({ name: `bench key ${i}` }));
    const mount = MountCreateSchema.parse({
      name: `m${i}`,
      mount_path: `/bench/m${i}`,
      storage_type: "local",
      storage_config_id: configId,
    });
    await t.services.mounts.create(mount, adminAuth());
  }
}

/** The bytes of the app's KV file and its WAL. */
export async function kvBytes(t: TestApp): Promise<number> {
  let n = 0;
  for (const suffix of ["", "-wal"]) {
    n += (await Deno.stat(`${t.dir}/cubby.kv${suffix}`).catch(() => ({ size: 0 }))).size;
  }
  return n;
}
