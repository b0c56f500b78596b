/**
 * The last line of defence against one request ending the process. Deno exits on an error thrown
 * in a callback outside any promise chain (a stream or event listener, a timer) and on a
 * rejection nobody handles. Every such callback in Cubby observes its own errors; should one be
 * missed, this logs it loudly ("Uncaught …", with the stack, so tests that read the log still
 * fail on it) and keeps serving everyone else instead of dropping every connection.
 */

/** Installs the global handlers once; `log` receives one line per uncaught error. */
export function guardProcess(log: (msg: string) => void = console.error): void {
  globalThis.addEventListener("error", (event) => {
    event.preventDefault();
    const err = (event as ErrorEvent).error;
    log(`Uncaught error (kept running): ${err?.stack ?? (event as ErrorEvent).message}`);
  });
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    const reason = event.reason;
    log(`Uncaught rejection (kept running): ${reason?.stack ?? reason}`);
  });
}
