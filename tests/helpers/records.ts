/** Stored records with plain defaults, for the unit tests of the KV repos and their users. */
import type { MountRecord } from "../../server/kv/mount_repo.ts";
import type { TaskRecord } from "../../server/fs/task_repo.ts";
import type { PasteRecord } from "../../server/shares/paste_record.ts";
import type { ContentRef } from "../../server/shares/paste_content.ts";

/** A mount record: an active local mount made by the admin, fields as `over` sets. */
export function mountRecord(id: string, mount_path: string, over: Partial<MountRecord> = {}) {
  const rec: MountRecord = {
    id,
    name: id,
    mount_path,
    storage_type: "local",
    storage_config_id: "cfg",
    remark: "",
    sort_order: 0,
    cache_ttl: 0,
    is_active: true,
    web_proxy: false,
    enable_sign: false,
    sign_expires: 0,
    webdav_policy: "302_redirect",
    created_by: "admin",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...over,
  };
  return rec;
}

/** A task record as the explorer writes one: a pending copy by the admin, fields as `over` sets. */
export function taskRecord(over: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id: "01TASK",
    type: "copy",
    status: "pending",
    current_file: null,
    success_count: 0,
    failed_count: 0,
    skipped_count: 0,
    total: 0,
    error: null,
    errors: [],
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    completed_at: null,
    created_by: "admin",
    items: [],
    skip_existing: false,
    next_item: 0,
    last_key: null,
    total_counted: false,
    actor: { type: "admin" },
    ...over,
  };
}

/**
 * A paste record of `content` with its list `preview`: made now by the admin, with no remark,
 * password, expiry or view limit; fields as `over` sets.
 */
export function pasteRecord(
  id: string,
  slug: string,
  content: ContentRef,
  preview: string,
  over: Partial<PasteRecord> = {},
): PasteRecord {
  const now = new Date().toISOString();
  return {
    id,
    slug,
    remark: null,
    password_hash: null,
    expires_at: null,
    max_views: 0,
    created_at: now,
    updated_at: now,
    created_by: "admin",
    ...content,
    preview,
    ...over,
  };
}
