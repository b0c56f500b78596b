/**
 * Server rendering of `/file/{slug}`: metadata only, never a counted view (docs/PRODUCT.md §12.5).
 * The browser then opens the share (GET /api/public/files/{slug}, or verify with a password),
 * which counts one view and returns preview and download links carrying a view token.
 *
 * `useInitialData().page` shape:
 * - 200: `{ file: {slug, filename, size, mimetype, has_password, max_views, views, expires_at,
 *   created_at, remark} }` (remark is "" for password-protected shares).
 * - 404: `{ error: "file_not_found" }`; 410: `{ error: "file_expired" }`.
 */
import type { Services } from "../container.ts";
import type { PageLoad } from "./page_load.ts";
import { AppError } from "../errors.ts";

/** Loads the page data for a file share without counting a view. */
export async function loadFilePage(services: Services, slug: string): Promise<PageLoad> {
  try {
    const file = await services.fileAccess.peek(slug);
    return { status: 200, page: { file }, description: file.filename, share: file };
  } catch (err) {
    if (err instanceof AppError && (err.status === 404 || err.status === 410)) {
      return { status: err.status, page: { error: err.code } };
    }
    throw err;
  }
}
