/** Calls of the settings screens (docs/PRODUCT.md §7.6). */
import { api } from "../../api/client.ts";
import { sendOrQueue } from "../../offline/queued_api.ts";
import type {
  SettingGroupId,
  SettingMeta,
  SettingValue,
} from "../../../shared/schemas/settings.ts";

/** A setting with its metadata, as the screens load it. */
export type SettingEntry = SettingMeta & { value: SettingValue };

/** The settings of one group with their metadata. Throws ApiError. */
export function getGroupSettings(group: SettingGroupId): Promise<SettingEntry[]> {
  return api<SettingEntry[]>("/admin/settings", { query: { group, metadata: true } });
}

/**
 * Saves values of one group (all or nothing) and returns the group's stored values. Throws
 * ApiError; `settings_invalid` carries `data.fields` (key → error code) and `data.params`.
 */
export function saveGroupSettings(
  group: SettingGroupId,
  values: Record<string, SettingValue>,
): Promise<{ key: string; value: SettingValue }[]> {
  return sendOrQueue(`/admin/settings/group/${group}`, {
    type: "updateGroupSettings",
    method: "PUT",
    body: values,
  });
}
