/**
 * Multipart uploads into mounts: which caller started which upload id, for which storage key.
 * Entries expire on their own (`expireIn`), so abandoned uploads leave no record behind.
 */
import { keys } from "../kv/keys.ts";

export type FsUploadRecord = {
  upload_id: string;
  mount_id: string;
  storage_config_id: string;
  /** The storage key of the target file. */
  key: string;
  /** The virtual path it was started for. */
  path: string;
  size: number;
  part_size: number;
  content_type: string;
  created_by: string;
  created_at: string;
};

/** How long an unfinished upload can be resumed, completed or aborted by its creator. */
export const FS_UPLOAD_TTL_MS = 24 * 60 * 60_000;

export class FsUploadRepo {
  constructor(private kv: Deno.Kv) {}

  /** Records an upload for a day. */
  async put(rec: FsUploadRecord): Promise<void> {
    await this.kv.set(keys.fsUploads(rec.upload_id), rec, { expireIn: FS_UPLOAD_TTL_MS });
  }

  /** The record of an upload id, or null. */
  async get(uploadId: string): Promise<FsUploadRecord | null> {
    return (await this.kv.get<FsUploadRecord>(keys.fsUploads(uploadId))).value;
  }

  /** The records of many upload ids (null where missing), ten keys per read. */
  async getMany(uploadIds: string[]): Promise<(FsUploadRecord | null)[]> {
    const out: (FsUploadRecord | null)[] = [];
    for (let i = 0; i < uploadIds.length; i += 10) {
      const batch = uploadIds.slice(i, i + 10).map((id) => keys.fsUploads(id));
      for (const e of await this.kv.getMany<FsUploadRecord[]>(batch)) out.push(e.value);
    }
    return out;
  }

  /** Forgets an upload (completed or aborted). */
  async delete(uploadId: string): Promise<void> {
    await this.kv.delete(keys.fsUploads(uploadId));
  }
}
