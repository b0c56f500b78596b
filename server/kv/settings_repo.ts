/** System settings: one KV entry per key under `["settings", key]`, holding the typed value. */
import { keys } from "./keys.ts";
import type { CacheEpochs } from "./cache_epochs.ts";
import type { SettingValue } from "../../shared/schemas/settings.ts";

export class SettingsRepo {
  constructor(private kv: Deno.Kv, private epochs: CacheEpochs) {}

  /** Every stored setting by key, in one prefix listing (unset keys are absent). */
  async readAll(): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for await (const e of this.kv.list({ prefix: keys.settingsPrefix() })) {
      const key = e.key[1];
      if (typeof key === "string") out.set(key, e.value);
    }
    return out;
  }

  /**
   * Writes the given values in one atomic commit, so a group update is all or nothing. Each key
   * is set independently of what was stored, so there is nothing to check: last writer wins.
   * The same commit moves the `settings` epoch, which every instance's settings cache follows.
   * Throws when the commit fails.
   */
  async writeMany(values: Record<string, SettingValue>): Promise<void> {
    const op = this.epochs.bumpIn(this.kv.atomic(), "settings");
    for (const [key, value] of Object.entries(values)) op.set(keys.settings(key), value);
    const res = await op.commit();
    if (!res.ok) throw new Error("settings commit failed");
  }
}
