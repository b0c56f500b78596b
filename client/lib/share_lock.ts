/**
 * The screen a share page shows when the server refused to open a share for want of a password:
 * the key form of an end-to-end encrypted share (the refusal carries its descriptor), or the
 * password prompt. The file and paste screens (file_screen.ts, paste_screen.ts) both start from it.
 */
import { ApiError } from "../api/client.ts";
import type { E2EDescriptor } from "../../shared/e2e/descriptor.ts";

/** What `password_required` asks for, with the share's metadata; null for any other failure. */
export function lockedScreen<M>(
  err: unknown,
  meta: M,
): { kind: "e2e"; meta: M; e2e: E2EDescriptor } | { kind: "password"; meta: M } | null {
  if (!(err instanceof ApiError) || err.code !== "password_required") return null;
  const e2e = (err.data as { e2e?: E2EDescriptor } | null)?.e2e;
  return e2e ? { kind: "e2e", meta, e2e } : { kind: "password", meta };
}
