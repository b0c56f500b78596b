/**
 * The end-to-end encryption descriptor of a share, as the API takes and shows it. The server
 * stores it beside the ciphertext and never reads inside: `version` names the format
 * (docs/E2E.md), `has_password` tells the browser to ask for the password the key was mixed
 * with, and `meta` (files only) is the sealed name and type.
 */
import { z } from "zod";
import { ACCESS_TOKEN_PATTERN, E2E_VERSION } from "../e2e/keys.ts";
import { MAX_META_CHARS } from "../e2e/payloads.ts";

export { ACCESS_TOKEN_PATTERN };

const Base64Url = /^[A-Za-z0-9_-]*$/;

/** `e2e` of a text share: the format version and whether a password is mixed into the key. */
export const E2ETextSchema = z.object({
  version: z.literal(E2E_VERSION, { error: "e2e_version_unsupported" }),
  has_password: z.boolean({ error: "validation_failed" }),
}, { error: "validation_failed" });

/** `e2e` of a file share: as for texts, plus the sealed name and type. */
export const E2EFileSchema = E2ETextSchema.extend({
  meta: z.string({ error: "e2e_meta_invalid" }).min(28, "e2e_meta_invalid")
    .max(MAX_META_CHARS, "e2e_meta_invalid").regex(Base64Url, "e2e_meta_invalid"),
});

/** The descriptor as stored and backed up: any version, so a backup outlives a format change. */
export const E2EStoredSchema = z.object({
  version: z.number().int().min(1).max(255),
  has_password: z.boolean(),
  meta: z.string().max(MAX_META_CHARS).regex(Base64Url).optional(),
});

/** A form field or query value holding the descriptor as JSON text; objects pass through. */
export const E2EFileFieldSchema = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  if (v === "") return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return v; // fails the object schema below with a clear code
  }
}, E2EFileSchema.optional());

export { E2E_STORED_NAME, E2E_STORED_TYPE, type E2EDescriptor } from "../e2e/descriptor.ts";

/** The password an end-to-end encrypted share is created with must be its access token. */
export function isAccessToken(password: string | null | undefined): boolean {
  return typeof password === "string" && ACCESS_TOKEN_PATTERN.test(password);
}
