/** PLACEHOLDER — replaced by the pastes work. */
import type { Services } from "../services/mod.ts";
import type { Language } from "../../shared/constants.ts";
import type { PageLoad } from "../routes/pages.ts";
export function loadPastePage(_s: Services, _slug: string, _lang: Language): Promise<PageLoad> {
  return Promise.resolve({ status: 404, page: { paste: null, error: "paste_not_found" } });
}
