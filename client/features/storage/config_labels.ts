/**
 * How a storage config is named where one is chosen (the upload page, the mount form). Names
 * are unique now (409 storage_config_name_exists), but configs made before that rule, or
 * imported, may share one: those get what tells them apart, the bucket (with its folder) or the
 * local directory, and the end of the id when even that is the same.
 */
import type { StorageConfigView } from "../../../shared/schemas/storage_configs.ts";

type Labelled = Pick<
  StorageConfigView,
  "id" | "name" | "bucket_name" | "default_folder" | "root_dir" | "provider_type"
>;

const nameKey = (name: string) => name.trim().toLocaleLowerCase("en-US");

/** Where a config keeps its files, in a few words: `bucket/folder` or the local directory. */
function placeOf(c: Labelled): string {
  if (c.provider_type === "local") return c.root_dir || "local";
  const folder = c.default_folder.replace(/^\/+|\/+$/g, "");
  return folder ? `${c.bucket_name}/${folder}` : c.bucket_name;
}

/** Config id → the label to show: the name, with a distinguishing suffix when it is shared. */
export function configLabels(configs: readonly Labelled[]): Map<string, string> {
  const byName = new Map<string, Labelled[]>();
  for (const c of configs) byName.set(nameKey(c.name), [...byName.get(nameKey(c.name)) ?? [], c]);
  const out = new Map<string, string>();
  for (const group of byName.values()) {
    if (group.length === 1) {
      out.set(group[0].id, group[0].name);
      continue;
    }
    const places = group.map(placeOf);
    group.forEach((c, i) => {
      const unique = places.filter((p) => p === places[i]).length === 1;
      const suffix = unique ? places[i] : `${places[i]} #${c.id.slice(-6)}`;
      out.set(c.id, `${c.name.trim()} (${suffix})`);
    });
  }
  return out;
}
