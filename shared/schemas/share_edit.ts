/**
 * The edit fields CloudPaste's client sends for pastes and files, read as Cubby's: `newSlug`
 * is `slug`, and `clearPassword: true` is `password: null` (remove the password). Both
 * `PUT /api/pastes/:id` and `PUT /api/files/:id` go through it.
 *
 * That client's edit dialog sends the share's current `slug` beside the `newSlug` it wants, so
 * a non-empty `newSlug` wins over `slug`; an empty or null one asks for no change.
 */
import { z } from "zod";

/** Maps the edit aliases onto Cubby's fields before `schema` validates the body. */
export function withEditAliases<S extends z.ZodType>(schema: S) {
  return z.preprocess((v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const { newSlug, clearPassword, ...rest } = v as Record<string, unknown>;
    const out: Record<string, unknown> = { ...rest };
    if (newSlug !== undefined && newSlug !== null && newSlug !== "") out.slug = newSlug;
    if (clearPassword === true || clearPassword === "true") out.password = null;
    return out;
  }, schema);
}
