/**
 * The service worker's global scope, typed by hand: the project type-checks with the DOM
 * library, which cannot be combined with the WebWorker one.
 */

/** The parts of ServiceWorkerGlobalScope the worker uses. */
export type WorkerScope = {
  addEventListener(
    type: "message",
    listener: (event: ExtendableMessage) => void,
  ): void;
  addEventListener(type: string, listener: (event: Event) => void): void;
  skipWaiting(): Promise<void>;
};

/** A message event with waitUntil. */
export type ExtendableMessage = MessageEvent & { waitUntil(p: Promise<unknown>): void };

/** The worker's global object. */
export const sw = globalThis as unknown as WorkerScope;

/** The build id written by scripts/build.ts. */
declare const __CUBBY_BUILD_ID__: string;
/** The build id of this worker. */
export const BUILD_ID: string = __CUBBY_BUILD_ID__;
