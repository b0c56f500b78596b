/**
 * What an upload or a copy does with a file already at its target, as File Browser and
 * Cloudreve ask: overwrite it, skip it, or keep both (the new one gets a free "name (1).ext").
 * The explorer asks the person first (POST /api/fs/exists) and sends the choice; an upload
 * sent with "fail" answers 409 file_exists when the file appeared meanwhile.
 */
import { conflict, fileTooLarge } from "../errors.ts";
import type { FsEntry } from "../../shared/schemas/fs.ts";

/** What an upload does with a file already at its path. */
export type UploadConflict = "overwrite" | "rename" | "fail";
/** What a copy does with a file already at its target. */
export type CopyConflict = "overwrite" | "rename" | "skip";

/** How many numbered names are tried before giving up (409). */
const MAX_NUMBER = 999;

/**
 * `name` with a number before its extension: "report.pdf" → "report (2).pdf"; a name without
 * one, or a dot file, gets it at the end: ".env" → ".env (2)".
 */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return `${name} (${n})`;
  return `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/**
 * The first of `name`, "name (1)", "name (2)"… for which `taken` says no. Throws 409
 * file_exists when even the 999th is taken.
 */
export async function freeName(
  name: string,
  taken: (candidate: string) => Promise<boolean>,
): Promise<string> {
  if (!await taken(name)) return name;
  for (let n = 1; n <= MAX_NUMBER; n++) {
    const candidate = numberedName(name, n);
    if (!await taken(candidate)) return candidate;
  }
  throw conflict("file_exists", { name });
}

/**
 * The path an upload of `name` into folder `dir` (a virtual path) writes to when something is
 * there: a free numbered name ("rename"); the same path ("overwrite", a file only); or 409
 * file_exists ("fail"). A folder there is 409 target_exists unless renaming. `stat` tells what
 * is at a path.
 */
export async function placeUpload(
  dir: string,
  name: string,
  mode: UploadConflict,
  stat: (path: string) => Promise<FsEntry | null>,
): Promise<string> {
  const join = (n: string) => dir === "/" ? `/${n}` : `${dir}/${n}`;
  const there = await stat(join(name));
  if (!there) return join(name);
  if (mode === "rename") {
    return join(await freeName(name, async (n) => (await stat(join(n))) !== null));
  }
  // A file never replaces a folder.
  if (there.type === "directory") throw conflict("target_exists", { path: join(name) });
  if (mode === "overwrite") return join(name);
  throw conflict("file_exists", { path: join(name), name });
}

/** The entries among `names` that folder `dir` holds, asked a few at a time (each is a HEAD). */
export async function existingIn(
  dir: string,
  names: string[],
  stat: (path: string) => Promise<FsEntry | null>,
): Promise<FsEntry[]> {
  const unique = [...new Set(names)];
  const found: (FsEntry | null)[] = [];
  for (let i = 0; i < unique.length; i += 16) {
    const batch = unique.slice(i, i + 16);
    found.push(...await Promise.all(batch.map((n) => stat(dir === "/" ? `/${n}` : `${dir}/${n}`))));
  }
  return found.filter((e): e is FsEntry => e !== null);
}

/** Passes parts through until they hold more than `max` bytes, then throws 413. */
export async function* limitParts(parts: AsyncIterable<Uint8Array>, max: number) {
  let seen = 0;
  for await (const part of parts) {
    seen += part.byteLength;
    if (seen > max) throw fileTooLarge(max);
    yield part;
  }
}
