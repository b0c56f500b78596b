/**
 * Runs client code in a unit test as a page served by a real Cubby would: a test app (app.ts)
 * served over HTTP on 127.0.0.1, `location` at its origin, a localStorage of its own (Deno's
 * is one file for every test file, and the unit tests run in parallel), the admin logged in
 * through the client's own auth store, and XMLHttpRequest stood in for by fetch_xhr.ts. Dispose
 * it (with `await using`) to put every global back and close the server and the app.
 */
import { clearAuth, setAdminAuth } from "../../client/auth/auth_store.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { counts, FetchXhr } from "./fetch_xhr.ts";

/** A Storage in memory, like a fresh browser profile's. */
class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length(): number {
    return this.#items.size;
  }
  clear(): void {
    this.#items.clear();
  }
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }
}

type Globals = { __CUBBY_CONFIG__?: { apiBase: string }; XMLHttpRequest?: unknown };

/** A served test app with the client's page globals pointed at it. */
export type ClientPage = {
  t: TestApp;
  /** "Bearer <token>" of the logged-in admin, for the test's own requests. */
  admin: string;
  /** The transfers sent through XMLHttpRequest since the page opened (fetch_xhr.ts). */
  xhr: typeof counts;
  [Symbol.asyncDispose]: () => Promise<void>;
};

/** Serves a fresh test app and sets up the page globals; the admin is logged in. */
export async function openClientPage(): Promise<ClientPage> {
  const t = await createTestApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req, info) => t.app.fetch(req, info),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const g = globalThis as Globals;
  const storage = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
  const define = (name: string, value: unknown) =>
    Object.defineProperty(globalThis, name, { value, configurable: true });
  define("location", new URL(`${origin}/`));
  define("localStorage", new MemoryStorage());
  g.__CUBBY_CONFIG__ = { apiBase: origin };
  g.XMLHttpRequest = FetchXhr;
  counts.byMethod.clear();
  counts.maxInFlight = 0;
  const admin = await t.adminAuth();
  setAdminAuth(admin.slice("Bearer ".length), "admin");
  return {
    t,
    admin,
    xhr: counts,
    async [Symbol.asyncDispose]() {
      clearAuth();
      delete g.__CUBBY_CONFIG__;
      delete g.XMLHttpRequest;
      delete (globalThis as { location?: unknown }).location;
      if (storage) Object.defineProperty(globalThis, "localStorage", storage);
      await server.shutdown();
      await t.close();
    },
  };
}

/**
 * Asks `probe` until it answers `want`, for what a page sends in the background (up to 5 s);
 * returns the last answer, for the test to assert.
 */
export async function pollUntil<T>(probe: () => Promise<T>, want: T): Promise<T> {
  let got = await probe();
  for (let i = 0; i < 250 && got !== want; i++) {
    await new Promise((r) => setTimeout(r, 20));
    got = await probe();
  }
  return got;
}
