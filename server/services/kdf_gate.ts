/**
 * A small semaphore for password checks. PBKDF2 at 600k iterations costs a core for a good
 * fraction of a second, and WebCrypto runs it on a thread pool as large as the machine, so a
 * burst of unauthenticated checks could saturate every core. The gate lets `concurrency`
 * checks run at once and `queue` more wait (at most `maxWaitMs`); anything beyond that is
 * answered 429 at once. It guards CPU, not correctness, so it may live in process memory.
 */
import { AppError } from "../errors.ts";

const busy = () => new AppError("too_many_requests", 429, { seconds: 1 });

export class KdfGate {
  #active = 0;
  #waiting: (() => void)[] = [];

  constructor(
    private concurrency: number,
    private queue: number,
    private maxWaitMs = 10_000,
  ) {}

  /** Checks running now and waiting now (for tests and stats). */
  get load(): { active: number; waiting: number } {
    return { active: this.#active, waiting: this.#waiting.length };
  }

  /** Runs `fn` when a slot is free; throws 429 when the queue is full or the wait too long. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await fn();
    } finally {
      this.#release();
    }
  }

  #acquire(): Promise<void> {
    if (this.#active < this.concurrency) {
      this.#active++;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.queue) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiting = this.#waiting.filter((w) => w !== wake);
        reject(busy());
      }, this.maxWaitMs);
      this.#waiting.push(wake);
    });
  }

  /** Hands the slot to the next waiter, or frees it. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active--;
  }
}
