/**
 * Starts denokv, the self-hosted KV Connect server, for tests: on a free 127.0.0.1 port with
 * its SQLite file in a temporary directory, and stops it with `await using`.
 *
 * Deno's KV Connect client takes the access token only from the DENO_KV_ACCESS_TOKEN
 * environment variable, read when `Deno.openKv(url)` runs. So every denokv this process starts
 * uses one random token, set in this process's environment before the first start; an
 * `openKv` never races another over a different token, and child processes inherit it.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { freePort, startEngineIn } from "./engine_process.ts";
import { requireEngine } from "./engines.ts";

/** The access token of every denokv this test process starts. */
export const DENOKV_TOKEN = process.env.CUBBY_TEST_DENOKV_TOKEN ||
  randomBytes(24).toString("hex");

export type DenoKvHandle = {
  /** The KV Connect URL, e.g. `http://127.0.0.1:41234`, for `Deno.openKv(url)` or KV_URL. */
  url: string;
  /** The access token (also in this process's DENO_KV_ACCESS_TOKEN). */
  token: string;
  /** The SQLite file the server persists to. */
  sqlitePath: string;
  /** Opens a new connection to this server (close it before the handle is disposed). */
  openKv(): Promise<Deno.Kv>;
  /** What denokv printed, for failure messages. */
  output(): string;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

/** Starts denokv; ready once its metadata endpoint (POST /) accepts the token. */
export async function startDenoKv(): Promise<DenoKvHandle> {
  const bin = requireEngine("denokv");
  process.env.DENO_KV_ACCESS_TOKEN = DENOKV_TOKEN;
  const dir = await mkdtemp(join(tmpdir(), "cubby-denokv-"));
  const sqlitePath = join(dir, "kv.sqlite3");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const engine = await startEngineIn(dir, {
    name: "denokv",
    bin,
    args: ["--sqlite-path", sqlitePath, "serve", "--addr", `127.0.0.1:${port}`],
    // The token goes through the environment, so it never shows in a process listing.
    env: { DENO_KV_ACCESS_TOKEN: DENOKV_TOKEN, RUST_LOG: "warn" },
    ready: async () => {
      const res = await fetch(`${url}/`, {
        method: "POST",
        headers: { authorization: `Bearer ${DENOKV_TOKEN}` },
        body: JSON.stringify({ supportedVersions: [2, 3] }),
      });
      await res.body?.cancel();
      return res.ok;
    },
  });
  const handle: DenoKvHandle = {
    url,
    token: DENOKV_TOKEN,
    sqlitePath,
    openKv: () => {
      process.env.DENO_KV_ACCESS_TOKEN = DENOKV_TOKEN;
      return Deno.openKv(url);
    },
    output: () => engine.output(),
    stop: () => engine.stop(),
    [Symbol.asyncDispose]: () => handle.stop(),
  };
  return handle;
}
