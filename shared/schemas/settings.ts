/**
 * System settings (docs/PRODUCT.md §3.7 and §7.6), the one entry both sides import: the
 * metadata table (settings_metadata.ts) drives the defaults, the metadata endpoint, the labels
 * of the settings screens and the value checks below, which the server and the settings
 * screens share; the site config (site_config.ts) is read from the site group. Values are
 * stored typed (number, boolean or string) under `["settings", key]`.
 */
import { extensionListProblem, parseExtensionList } from "../preview_types.ts";
import type { ErrorCode } from "../errors.ts";
import { BIG_TEXT, type SettingMeta, type SettingValue } from "./settings_metadata.ts";

export * from "./settings_metadata.ts";
export * from "./site_config.ts";

/** A failed check: an `errors.<code>` key and its interpolation values. */
export type SettingIssue = { error: ErrorCode; params?: Record<string, string | number> };
export type SettingCheck = { ok: true; value: SettingValue } | ({ ok: false } & SettingIssue);

/** http, https and data: URLs only (docs/PRODUCT.md §5.4); "" means the built-in icon. */
export function isFaviconUrl(value: string): boolean {
  return /^data:[a-z0-9.+-]+\/[a-z0-9.+-]+(?:;[a-z0-9=.+-]+)*,/i.test(value) || isHttpUrl(value);
}

/** An http or https address with a host (the source link); "" means none. */
export function isHttpUrl(value: string): boolean {
  if (value === "") return true;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * Checks and normalises one value against its metadata. Numbers and booleans may also come as
 * strings ("100", "true"), as form fields and queued offline requests send them. Extension
 * lists are normalised to lower case, ", "-separated, without dots or duplicates.
 */
export function checkSettingValue(m: SettingMeta, raw: unknown): SettingCheck {
  const fail = (error: ErrorCode, params?: SettingIssue["params"]): SettingCheck => ({
    ok: false,
    error,
    params,
  });
  if (m.system) return fail("setting_read_only");
  switch (m.type) {
    case "integer": {
      const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
      if (typeof n !== "number" || !Number.isInteger(n) || n < m.min! || n > m.max!) {
        return fail("setting_integer_invalid", { min: m.min!, max: m.max! });
      }
      return { ok: true, value: n };
    }
    case "boolean": {
      if (typeof raw === "boolean") return { ok: true, value: raw };
      if (raw === "true" || raw === "1" || raw === 1) return { ok: true, value: true };
      if (raw === "false" || raw === "0" || raw === 0) return { ok: true, value: false };
      return fail("setting_boolean_invalid");
    }
    case "enum": {
      if (typeof raw !== "string" || !m.options!.includes(raw)) {
        return fail("setting_option_invalid", { options: m.options!.join(", ") });
      }
      return { ok: true, value: raw };
    }
    default: {
      if (typeof raw !== "string") return fail("setting_text_invalid");
      const max = m.max_length ?? BIG_TEXT;
      if (raw.length > max) return fail("setting_too_long", { max, length: raw.length });
      if (m.type === "string" || m.type === "url" || m.type === "link") {
        const value = raw.trim();
        // deno-lint-ignore no-control-regex
        if (/[\u0000-\u001f\u007f]/.test(value)) return fail("setting_text_invalid");
        if (m.type === "url" && !isFaviconUrl(value)) return fail("setting_url_invalid");
        if (m.type === "link" && !isHttpUrl(value)) return fail("setting_link_invalid");
        return { ok: true, value };
      }
      if (m.type === "extensions") {
        const problem = extensionListProblem(raw);
        if (problem) return fail(problem.error, problem.params);
        return { ok: true, value: parseExtensionList(raw).join(", ") };
      }
      return { ok: true, value: raw };
    }
  }
}
