/**
 * System settings: listing, metadata, validated group updates, and the typed values the rest of
 * the server reads (upload limit, proxy default, site config...).
 *
 * Changes apply without a restart. The stored values are read with one KV prefix listing and
 * kept in process memory for at most CACHE_TTL_MS; a write on this instance drops that copy at
 * once. A write also moves the `settings` epoch (kv/cache_epochs.ts): other instances sharing
 * the KV that follow it (`followWrites`) drop theirs about a millisecond later, and within the
 * TTL in any case.
 *
 * A value written with `validate=false` is stored as given (a string, number or boolean). Every
 * typed reader below checks the stored value again and uses the default when it fails, so a bad
 * value can never break uploads or rendering; the listing shows what is stored.
 */
import type { CacheEpochs } from "../kv/cache_epochs.ts";
import type { SettingsRepo } from "../kv/settings_repo.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { APP_NAME } from "../../shared/constants.ts";
import {
  checkSettingValue,
  groupMetadata,
  isSettingGroup,
  previewListsFrom,
  type PublicSiteConfig,
  resolveSettingAlias,
  SETTING_GROUPS,
  type SettingGroupId,
  type SettingIssue,
  type SettingMeta,
  settingMeta,
  SETTINGS_METADATA,
  type SettingValue,
  SITE_GROUP,
} from "../../shared/schemas/settings.ts";
import type { PreviewListType } from "../../shared/preview_types.ts";

/** How long one reading of the stored settings is reused. */
export const CACHE_TTL_MS = 2_000;

const UNIT_BYTES = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;
export type SizeUnit = keyof typeof UNIT_BYTES;

/** One setting in a listing; with `metadata`, the metadata fields as well. */
export type SettingEntry =
  & { key: string; group: SettingGroupId; value: SettingValue }
  & Partial<
    SettingMeta
  >;

export type ListOptions = { group?: SettingGroupId; metadata?: boolean; includeSystem?: boolean };

const isPrimitive = (v: unknown): v is SettingValue =>
  typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && isFinite(v));

export class SettingsService {
  private cache: { at: number; values: Map<string, unknown> } | null = null;
  private publicConfig: { stored: Map<string, unknown>; config: PublicSiteConfig } | null = null;

  constructor(private repo: SettingsRepo, private ttlMs = CACHE_TTL_MS) {}

  private async stored(): Promise<Map<string, unknown>> {
    const now = Date.now();
    if (this.cache && now - this.cache.at < this.ttlMs) return this.cache.values;
    const values = await this.repo.readAll();
    this.cache = { at: now, values };
    return values;
  }

  /** Drops the cached reading, so the next read goes to KV (after writes made elsewhere). */
  invalidate(): void {
    this.cache = null;
  }

  /** Drops the cached reading whenever any instance writes settings (until stopFollowing). */
  followWrites(epochs: CacheEpochs): void {
    epochs.follow(["settings"], () => this.invalidate());
  }

  /** The effective value of a key: the stored one if it passes its check, else the default. */
  private effective(stored: Map<string, unknown>, key: string): SettingValue {
    const m = settingMeta(key)!;
    if (!stored.has(key)) return m.default;
    const raw = stored.get(key);
    if (m.system) return typeof raw === "string" ? raw : m.default;
    const check = checkSettingValue(m, raw);
    return check.ok ? check.value : m.default;
  }

  /** Settings of one group or of all groups, in display order. */
  async list(opts: ListOptions = {}): Promise<SettingEntry[]> {
    const stored = await this.stored();
    const metas = opts.group
      ? groupMetadata(opts.group, opts.includeSystem)
      : SETTINGS_METADATA.filter((m) => opts.includeSystem || !m.system);
    return metas.map((m) => {
      const value = stored.has(m.key) && isPrimitive(stored.get(m.key))
        ? stored.get(m.key) as SettingValue
        : m.default;
      return opts.metadata ? { ...m, value } : { key: m.key, group: m.group, value };
    });
  }

  /** The groups with their names and numbers of (non-system) settings. */
  groups() {
    return SETTING_GROUPS.map((g) => ({
      id: g.id,
      name: g.name,
      label_key: `settings.groups.${g.name}`,
      count: groupMetadata(g.id).length,
    }));
  }

  /** The metadata of one key, or of every key. Throws 404 setting_not_found. */
  metadata(key?: string): SettingMeta | readonly SettingMeta[] {
    if (key === undefined || key === "") return SETTINGS_METADATA;
    const m = settingMeta(key);
    if (!m) throw notFound("setting_not_found", { key });
    return m;
  }

  /**
   * Updates some keys of one group in one atomic commit and returns the group. Every failing
   * key is reported (400 settings_invalid, `fields`: key → code) and then nothing is written.
   * With `validate` false the values' checks are skipped, but unknown, foreign and read-only
   * keys are still refused. Throws 404 settings_group_not_found.
   */
  async updateGroup(
    group: number,
    input: unknown,
    validate = true,
  ): Promise<SettingEntry[]> {
    if (!isSettingGroup(group)) throw notFound("settings_group_not_found", { group });
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      throw badRequest("validation_failed");
    }
    const out: Record<string, SettingValue> = {};
    const issues: Record<string, SettingIssue> = {};
    for (const [name, given] of Object.entries(input)) {
      const [key, raw] = resolveSettingAlias(name, given);
      const m = settingMeta(key);
      if (!m || m.group !== group) {
        issues[key] = { error: "setting_unknown" };
        continue;
      }
      const check = checkSettingValue(m, raw);
      if (check.ok) out[key] = check.value;
      else if (!validate && !m.system && isPrimitive(raw)) out[key] = raw;
      else issues[key] = { error: check.error, params: check.params };
    }
    const failed = Object.keys(issues);
    if (failed.length > 0) {
      throw new AppError("settings_invalid", 400, {
        keys: failed.join(", "),
        fields: Object.fromEntries(failed.map((k) => [k, issues[k].error])),
        params: Object.fromEntries(failed.map((k) => [k, issues[k].params ?? {}])),
      });
    }
    if (Object.keys(out).length > 0) {
      if (group === SITE_GROUP) out.site_updated_at = new Date().toISOString();
      try {
        await this.repo.writeMany(out);
      } finally {
        this.invalidate();
      }
    }
    return this.list({ group });
  }

  /** Every stored value by key (for backups). */
  async exportValues(): Promise<Record<string, SettingValue>> {
    const stored = await this.repo.readAll();
    const out: Record<string, SettingValue> = {};
    for (const [k, v] of stored) if (settingMeta(k) && isPrimitive(v)) out[k] = v;
    return out;
  }

  /** The site title, or the product name when none is set. */
  async getTitle(): Promise<string> {
    return String(this.effective(await this.stored(), "site_title")).trim() || APP_NAME;
  }

  /** The max upload size setting as value and unit (100 MB when unset). */
  async getMaxUploadSize(): Promise<{ value: number; unit: SizeUnit }> {
    const stored = await this.stored();
    return {
      value: Number(this.effective(stored, "max_upload_size")),
      unit: this.effective(stored, "max_upload_size_unit") as SizeUnit,
    };
  }

  /** The max upload size in bytes. */
  async getMaxUploadBytes(): Promise<number> {
    const { value, unit } = await this.getMaxUploadSize();
    return Math.floor(value * UNIT_BYTES[unit]);
  }

  /** Whether new file shares are served through this server unless the upload says otherwise. */
  async getDefaultUseProxy(): Promise<boolean> {
    return this.effective(await this.stored(), "default_use_proxy") === true;
  }

  /** What an upload to an existing path does: overwrite it, or pick a name with a suffix. */
  async getFileOverwriteMode(): Promise<"overwrite" | "rename"> {
    return this.effective(await this.stored(), "file_overwrite_mode") as "overwrite" | "rename";
  }

  /** Proxy-link signing: sign every link, and their lifetime in seconds (0 = never expire). */
  async getProxySign(): Promise<{ signAll: boolean; expiresIn: number }> {
    const stored = await this.stored();
    return {
      signAll: this.effective(stored, "proxy_sign_all") === true,
      expiresIn: Number(this.effective(stored, "proxy_sign_expires")),
    };
  }

  /** How WebDAV PUTs reach storage: one direct stream, or a multipart upload. */
  async getWebdavUploadMode(): Promise<"direct" | "multipart"> {
    return this.effective(await this.stored(), "webdav_upload_mode") as "direct" | "multipart";
  }

  /** The preview extension lists (lower case, without dots). */
  async getPreviewLists(): Promise<Record<PreviewListType, string[]>> {
    const stored = await this.stored();
    return previewListsFrom((key) => this.effective(stored, key));
  }

  /**
   * The site group and the preview lists: what anyone may read (GET /api/public/site-config).
   * The same frozen object is returned for as long as the same reading of the stored settings is
   * used, so callers may memoise what they derive from it by its identity (ssr/app_page.ts).
   */
  async getPublicSiteConfig(): Promise<PublicSiteConfig> {
    const stored = await this.stored();
    if (this.publicConfig?.stored !== stored) {
      this.publicConfig = { stored, config: deepFreeze(this.buildPublicSiteConfig(stored)) };
    }
    return this.publicConfig.config;
  }

  private buildPublicSiteConfig(stored: Map<string, unknown>): PublicSiteConfig {
    const v = (key: string) => this.effective(stored, key);
    return {
      site_title: String(v("site_title")),
      site_favicon_url: String(v("site_favicon_url")),
      site_footer_markdown: String(v("site_footer_markdown")),
      site_announcement_enabled: v("site_announcement_enabled") === true,
      site_announcement_content: String(v("site_announcement_content")),
      site_custom_head: String(v("site_custom_head")),
      site_custom_body: String(v("site_custom_body")),
      site_source_url: String(v("site_source_url")),
      site_updated_at: String(v("site_updated_at")),
      preview_types: previewListsFrom(v),
    };
  }
}

/** Freezes an object and every object in it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
