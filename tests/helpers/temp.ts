/** Temporary directories that remove themselves at the end of an `await using` scope. */

/** A fresh temporary directory; disposing it removes it with everything inside. */
export async function tempDir(prefix: string): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }).catch(() => {}),
  };
}
