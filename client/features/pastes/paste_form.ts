/**
 * Client-side checks of a paste's content (docs/PRODUCT.md §5.2), the same rules the server
 * applies; the share options' checks are in components/share_form.ts.
 */
import { MAX_PASTE_BYTES } from "../../../shared/constants.ts";
import { utf8ByteLength } from "../../../shared/slug.ts";

export { utf8ByteLength } from "../../../shared/slug.ts";

/** The error code of a content that cannot be sent, or null when it can. */
export function checkContent(content: string, bytes = utf8ByteLength(content)): string | null {
  if (content.trim() === "") return "content_empty";
  if (bytes > MAX_PASTE_BYTES) return "content_too_large";
  return null;
}
