/**
 * Temporary directories that remove themselves at the end of an `await using` scope, and a
 * check that a path exists.
 */

/** A fresh temporary directory; disposing it removes it with everything inside. */
export async function tempDir(prefix: string): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }).catch(() => {}),
  };
}

/** Whether anything is at `path` (a file, a folder or a link). */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
