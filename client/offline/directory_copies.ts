/**
 * Explorer listings in the offline store (table `directories`, by path), kept for the identity
 * that read them: a copy is only ever shown to the same admin or API key, and logout clears the
 * table (db.ts clearIdentityData). Only the first page of a listing is kept.
 */
import { getAuth } from "../auth/auth_store.ts";
import { db } from "./db.ts";

/** Who is reading: "admin", "apikey:<id>", or null when nobody is logged in. */
function identity(): string | null {
  const auth = getAuth();
  if (auth.authType === "admin") return "admin";
  if (auth.authType === "apikey" && auth.keyInfo) return `apikey:${auth.keyInfo.id}`;
  return null;
}

/** Keeps a listing for the current identity. Never throws. */
export async function keepDirectoryCopy(path: string, data: unknown): Promise<void> {
  const owner = identity();
  if (!owner) return;
  try {
    await db.directories.put({ path, owner, data, savedAt: Date.now() });
  } catch { /* no IndexedDB: offline copies are a convenience */ }
}

/** The kept listing of `path` for the current identity, or null. */
export async function readDirectoryCopy<T>(
  path: string,
): Promise<{ data: T; savedAt: number } | null> {
  const owner = identity();
  if (!owner) return null;
  try {
    const copy = await db.directories.get(path);
    return copy && copy.owner === owner ? { data: copy.data as T, savedAt: copy.savedAt } : null;
  } catch {
    return null;
  }
}
