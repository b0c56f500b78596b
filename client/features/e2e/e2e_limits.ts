/**
 * What the end-to-end encrypted file page states (the code that applies it loads lazily): the
 * sizes decrypted in memory, and the command that fetches a share from a terminal.
 */

/** The largest file decrypted in memory when no service worker can stream the download. */
export const MEMORY_SAVE_MAX = 256 * 1024 * 1024;
/** The largest file previewed: previews decrypt the whole file in memory. */
export const PREVIEW_MAX = 32 * 1024 * 1024;

/** The command that fetches and decrypts a share with the client Cubby serves (cli/). */
export function cliCommand(link: string): string {
  const url = new URL(link);
  return `deno run --allow-net=${url.host} --allow-write=. ${url.origin}/cli.ts get '${link}'`;
}
