/** Site and limit settings read by rendering and uploads (spec §3 settings). */
import { keys } from "../kv/keys.ts";
import { APP_NAME, MAX_UPLOAD_SIZE_FALLBACK_MB } from "../../shared/constants.ts";

const UNIT_BYTES = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;
export type SizeUnit = keyof typeof UNIT_BYTES;

export class SiteService {
  constructor(private kv: Deno.Kv) {}

  /** The site title, or the product name when none is set. */
  async getTitle(): Promise<string> {
    const { value } = await this.kv.get<string>(keys.settings("site_title"));
    return value || APP_NAME;
  }

  /** The max upload size setting as value and unit (100 MB when unset). */
  async getMaxUploadSize(): Promise<{ value: number; unit: SizeUnit }> {
    const [size, unit] = await this.kv.getMany<[number, string]>([
      keys.settings("max_upload_size"),
      keys.settings("max_upload_size_unit"),
    ]);
    const u = unit.value && unit.value in UNIT_BYTES ? unit.value as SizeUnit : "MB";
    const v = typeof size.value === "number" && size.value > 0
      ? size.value
      : MAX_UPLOAD_SIZE_FALLBACK_MB;
    return size.value ? { value: v, unit: u } : { value: MAX_UPLOAD_SIZE_FALLBACK_MB, unit: "MB" };
  }

  /** The max upload size in bytes. */
  async getMaxUploadBytes(): Promise<number> {
    const { value, unit } = await this.getMaxUploadSize();
    return Math.floor(value * UNIT_BYTES[unit]);
  }
}
