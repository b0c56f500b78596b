/**
 * Early flushes of a large file being written: the disk writes its first bytes while the rest
 * still arrives, so the final `fdatasync` has little left to wait for (bench/README.md,
 * "Uploads"). Durability is unchanged: the writer still calls `fdatasync` after its last write.
 */

/** Bytes written between the starts of two early flushes. */
export const FLUSH_EVERY = 16 * 1024 * 1024;

/**
 * Every FLUSH_EVERY bytes, an `fdatasync` of the file runs in the background, one at a time. It
 * goes through a second handle of the same file: Deno runs the operations of one handle one after
 * another, so a sync on the writing handle would hold up the writes behind it.
 */
export class EarlyFlush {
  #path: string;
  #handle: Deno.FsFile | null = null;
  #running: Promise<void> | null = null;
  #error: unknown = null;
  #flushedAt = 0;
  /** Flushes started so far. */
  started = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /**
   * Called after each write with the bytes written so far; may start a flush. Throws what an
   * earlier flush threw, so a write whose disk failed stops at once.
   */
  after(written: number): void {
    if (this.#error) throw this.#error;
    if (this.#running || written - this.#flushedAt < FLUSH_EVERY) return;
    this.#flushedAt = written;
    this.started++;
    // Failures are kept for close(): a rejection nobody awaits yet would end the process.
    this.#running = this.#flush()
      .catch((err) => void (this.#error ??= err))
      .finally(() => void (this.#running = null));
  }

  async #flush(): Promise<void> {
    this.#handle ??= await Deno.open(this.#path, { write: true });
    await this.#handle.syncData();
  }

  /** Waits for the flush in flight, closes the second handle, and throws what a flush threw. */
  async close(): Promise<void> {
    await this.#running;
    this.#handle?.close();
    this.#handle = null;
    if (this.#error) throw this.#error;
  }
}
