/** The upload screen's options (docs/PRODUCT.md §3.11, §5.2): values, checks, and payload. */
import {
  MAX_SLUG_LENGTH,
  RESERVED_SLUGS,
  SHARE_EXPIRY_PRESETS,
} from "../../../shared/constants.ts";
import type { StorageConfigView } from "../../../shared/schemas/storage_configs.ts";
import { MULTIPART_THRESHOLD, type ShareOptions, type UploadMethod } from "../../lib/uploader.ts";
import { parseMaxViews as parseViews } from "../../components/share_form.ts";

export type ExpiryPresetId = typeof SHARE_EXPIRY_PRESETS[number]["id"];

/** How files are sent: automatic (multipart when large, presign for S3, form), or forced. */
export type MethodChoice = "auto" | UploadMethod;
export const METHOD_CHOICES: readonly MethodChoice[] = ["auto", "multipart", "presign", "form"];

export type UploadFormValues = {
  configId: string;
  slug: string;
  remark: string;
  password: string;
  expiry: ExpiryPresetId;
  /** As typed; parsed with parseMaxViews. */
  maxViews: string;
  useProxy: boolean;
  method: MethodChoice;
  /** Encrypt files end to end in this browser (off by default). */
  e2e: boolean;
};

export const INITIAL_VALUES: UploadFormValues = {
  configId: "",
  slug: "",
  remark: "",
  password: "",
  expiry: "never",
  maxViews: "0",
  useProxy: true,
  method: "auto",
  e2e: false,
};

const METHOD_KEY = "cubby.uploadMethod";

/** The upload method the user chose last time on this device. */
export function loadMethodChoice(): MethodChoice {
  try {
    const v = globalThis.localStorage?.getItem(METHOD_KEY);
    return METHOD_CHOICES.includes(v as MethodChoice) ? v as MethodChoice : "auto";
  } catch {
    return "auto";
  }
}

/** Remembers the upload method on this device. */
export function saveMethodChoice(choice: MethodChoice): void {
  try {
    globalThis.localStorage?.setItem(METHOD_KEY, choice);
  } catch { /* storage unavailable: the choice is a convenience only */ }
}

const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;
const RESERVED = new Set<string>(RESERVED_SLUGS.map((s) => s.toLowerCase()));

/** The error code of an invalid link suffix, or null (empty means a random one). */
export function checkSlug(slug: string): string | null {
  if (slug === "") return null;
  if (slug.length > MAX_SLUG_LENGTH || !SLUG_PATTERN.test(slug)) return "slug_invalid";
  if (RESERVED.has(slug.toLowerCase())) return "slug_reserved";
  return null;
}

/** Parses max views of a file share: a whole number from 0 (unlimited) to 1e9, else null. */
export function parseMaxViews(value: string): number | null {
  return parseViews(value, 1_000_000_000);
}

/** Hours of an expiry preset (the API's `expires_in` unit); 0 for never. */
export function expiresInFor(preset: ExpiryPresetId): number {
  const p = SHARE_EXPIRY_PRESETS.find((x) => x.id === preset);
  return p?.ms ? p.ms / 3_600_000 : 0;
}

/**
 * The flow of a file: the forced method; else multipart above `threshold` bytes (resumable,
 * parts straight to storage), presign for S3 and the form for local storage.
 */
export function methodFor(
  choice: MethodChoice,
  config: StorageConfigView | undefined,
  size = 0,
  threshold = MULTIPART_THRESHOLD,
): UploadMethod {
  if (choice !== "auto") return choice;
  if (size > threshold) return "multipart";
  return config?.storage_type === "s3" ? "presign" : "form";
}

/** The config selected first: the default, else the first listed. */
export function initialConfigId(configs: StorageConfigView[]): string {
  return (configs.find((c) => c.is_default) ?? configs[0])?.id ?? "";
}

/** The share options of an upload; the link suffix only when `withSlug` (a single file). */
export function toShareOptions(v: UploadFormValues, withSlug: boolean): ShareOptions {
  return {
    s3ConfigId: v.configId || undefined,
    slug: withSlug && v.slug.trim() ? v.slug.trim() : undefined,
    remark: v.remark.trim() || undefined,
    password: v.password || undefined,
    expiresIn: expiresInFor(v.expiry),
    maxViews: parseMaxViews(v.maxViews) ?? 0,
    useProxy: v.useProxy,
  };
}

/** A clearer name for a pasted file: browsers call every pasted image "image.png". */
export function pastedFileName(file: File, now = new Date()): string {
  if (file.name && !/^image\.\w+$/i.test(file.name)) return file.name;
  const ext = file.name.match(/\.(\w+)$/)?.[1] ?? file.type.split("/")[1]?.split("+")[0] ?? "bin";
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-` +
    `${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `pasted-${stamp}.${ext}`;
}
