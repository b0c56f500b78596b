/** Site configuration read by server rendering (spec §3 site settings, group 4). */
import { keys } from "../kv/keys.ts";
import { APP_NAME } from "../../shared/constants.ts";

export class SiteService {
  constructor(private kv: Deno.Kv) {}

  /** The site title, or the product name when none is set. */
  async getTitle(): Promise<string> {
    const { value } = await this.kv.get<string>(keys.settings("site_title"));
    return value || APP_NAME;
  }
}
