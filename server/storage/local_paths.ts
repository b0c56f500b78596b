/**
 * Where the local driver's keys live on disk, and the containment rule: every key is
 * validated, then the real path of the file (or of its nearest existing ancestor, before
 * anything is created) must lie inside the real root, so neither `..` nor a symlink can reach
 * outside it (400 `storage_path_invalid`). Top-level names starting with `.cubby-` are the
 * driver's own (temp files, multipart staging): they are refused as keys, except
 * `.cubby-shares/`, where the file service keeps share objects, and `.cubby-backups/`, where
 * scheduled backups go (see share_area.ts; mounts never reach either). None of them is listed.
 */
import { dirname, join, sep } from "node:path";
import { AppError } from "../errors.ts";
import { validateKey } from "./driver.ts";
import { fsError } from "./local_errors.ts";
import { BACKUP_OBJECTS_FOLDER, SHARE_OBJECTS_FOLDER } from "./share_area.ts";

/** The longest file or folder name common filesystems hold (NAME_MAX). */
export const MAX_NAME_BYTES = 255;
const encoder = new TextEncoder();

/** Top-level names with this prefix are reserved: never keys, never listed. */
export const RESERVED_PREFIX = ".cubby-";
/** Temp files being written, renamed into place when complete. */
export const TMP_DIR = ".cubby-tmp";
/** Multipart uploads: one folder per upload id, holding `upload.json` and the parts. */
export const STAGING_DIR = ".cubby-multipart";

/** Whether `real` is `root` or lies below it (both real paths). */
export function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Whether `path` resolves to a regular file inside `root` (used for symlinks in listings). */
export async function isFileInside(root: string, path: string): Promise<boolean> {
  try {
    const real = await Deno.realPath(path);
    if (real !== root && !real.startsWith(root + sep)) return false;
    return (await Deno.stat(real)).isFile;
  } catch {
    return false;
  }
}

/** One root directory and the paths of keys under it. */
export class LocalRoot {
  readonly #dir: string;
  #real: Promise<string> | null = null;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** The real path of the root, created (with its temp folder) on first use. */
  real(): Promise<string> {
    return this.#real ??= (async () => {
      await Deno.mkdir(this.#dir, { recursive: true });
      const real = await Deno.realPath(this.#dir);
      await Deno.mkdir(join(real, TMP_DIR), { recursive: true });
      return real;
    })();
  }

  /** The folder temp files are written in. */
  async tmpDir(): Promise<string> {
    return join(await this.real(), TMP_DIR);
  }

  /** The folder multipart uploads are staged in. */
  async stagingDir(): Promise<string> {
    return join(await this.real(), STAGING_DIR);
  }

  /**
   * Validates a key (reserved names included) and joins it onto the real root; throws 400
   * (`name_too_long` for a name the filesystem cannot hold).
   */
  async pathOf(key: string): Promise<string> {
    validateKey(key);
    const top = key.split("/")[0];
    if (
      top.startsWith(RESERVED_PREFIX) && top !== SHARE_OBJECTS_FOLDER &&
      top !== BACKUP_OBJECTS_FOLDER
    ) {
      throw new AppError("storage_path_invalid", 400, { key });
    }
    if (key.split("/").some((name) => encoder.encode(name).length > MAX_NAME_BYTES)) {
      throw new AppError("name_too_long", 400, { key });
    }
    return join(await this.real(), ...key.split("/"));
  }

  /**
   * Throws 400 unless the nearest existing ancestor of `path` (or itself) is inside root.
   * Returns whether `path` itself exists.
   */
  async assertInside(path: string, key: string): Promise<boolean> {
    const root = await this.real();
    for (let p = path;; p = dirname(p)) {
      try {
        if (!isInside(root, await Deno.realPath(p))) break;
        return p === path;
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory)) {
          throw err;
        }
        if (p === root || dirname(p) === p) break;
      }
    }
    throw new AppError("storage_path_invalid", 400, { key });
  }

  /** The real path of an existing regular file with its stat, or null; 400 if outside root. */
  async existing(key: string): Promise<{ path: string; info: Deno.FileInfo } | null> {
    const found = await this.resolved(key, await this.pathOf(key));
    return found?.info.isFile ? found : null;
  }

  /** The real path of what is at `path` (the path of `key`) with its stat, or null; 400 outside. */
  async resolved(
    key: string,
    path: string,
  ): Promise<{ path: string; info: Deno.FileInfo } | null> {
    let real: string;
    try {
      real = await Deno.realPath(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
        return null;
      }
      throw err;
    }
    if (!isInside(await this.real(), real)) {
      throw new AppError("storage_path_invalid", 400, { key });
    }
    return { path: real, info: await Deno.stat(real) };
  }

  /** Creates the parent folders of a key and returns its path; 400 outside root, 409 on a file. */
  async writable(key: string): Promise<string> {
    const path = await this.pathOf(key);
    const existed = await this.assertInside(dirname(path), key);
    try {
      await Deno.mkdir(dirname(path), { recursive: true }); // 409 when a file is in the way
    } catch (err) {
      throw fsError(err, key);
    }
    // Folders made just now are checked again: one may have been swapped for a link meanwhile.
    if (!existed) await this.assertInside(dirname(path), key);
    return path;
  }

  /** Removes empty folders from `dir` up to (not including) the root. */
  async prune(dir: string): Promise<void> {
    const root = await this.real();
    for (let d = dir; d !== root && isInside(root, d); d = dirname(d)) {
      try {
        await Deno.remove(d);
      } catch {
        return; // not empty, or gone
      }
    }
  }
}
