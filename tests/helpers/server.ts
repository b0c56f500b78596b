/**
 * Starts the real Cubby server (`deno run -A main.ts`, or the bundle that `deno task start` runs:
 * serverEntry) as a child process on 127.0.0.1, on a free port and a fresh temporary data
 * directory, and waits for its listening line.
 *
 * Only `node:` built-ins are used, on purpose: `deno test` imports this module, and so does
 * Playwright's global setup, which Playwright loads through its own CommonJS transform (it runs
 * under Deno here, but without ESM-only features such as `import.meta`). The repository root is
 * therefore found from the working directory, which both runners set to the root.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";

/** The admin account every test server is started with (unless the caller overrides it). */
export const TEST_ADMIN = { username: "admin", password: "cubby-test-admin-pw" } as const;

/** A running (or stopped) test server. `url` and `port` change only if a restart must move. */
export type TestServer = {
  /** e.g. `http://127.0.0.1:41935`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Everything the server wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes the data directory. */
  stop(): Promise<void>;
  /** Kills the server with SIGKILL, like a crash; the data directory is kept. */
  kill9(): Promise<void>;
  /** Stops the server if it runs and starts it again on the same data directory. */
  restart(env?: Record<string, string>): Promise<void>;
  /** Stops the server at the end of an `await using` scope. */
  [Symbol.asyncDispose](): Promise<void>;
};

export type StartServerOptions = {
  /** Use this data directory instead of a new temporary one; stop() then leaves it in place. */
  dataDir?: string;
  /** How long to wait for the listening line. Default 60 s. */
  startTimeoutMs?: number;
  /** Extra `deno run` flags before the script (bench/memory.ts passes `--inspect=…`). */
  denoFlags?: string[];
  /** The script to run instead of serverEntry() (a bundle's entry). */
  entry?: string;
};

/** Environment variables of the parent that must not leak into an isolated test server. */
const ISOLATED_VARS = [
  "PORT",
  "HOST",
  "DATA_DIR",
  "KV_URL",
  "ADMIN_USERNAME",
  "ADMIN_PASSWORD",
  "ENCRYPTION_SECRET",
  "TRUST_PROXY",
  "SWEEP_INTERVAL_MS",
  "VIEW_FLUSH_MS",
  "BODY_IDLE_TIMEOUT_MS",
];
const LISTENING = /Cubby listening on (http:\/\/[^\s:]+):(\d+)/;
const MAX_OUTPUT_CHARS = 1_000_000;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** The repository root: the nearest ancestor of the working directory holding main.ts. */
export function findRepoRoot(from = process.env.CUBBY_ROOT || process.cwd()): string {
  let dir = resolve(from);
  while (true) {
    if (existsSync(join(dir, "main.ts")) && existsSync(join(dir, "deno.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`Cannot find the Cubby repository (main.ts, deno.json) above ${from}`);
    }
    dir = parent;
  }
}

/** The deno binary running this code, or `deno` from PATH under plain Node. */
export function denoBinary(): string {
  // deno-lint-ignore no-explicit-any
  const deno = (globalThis as any).Deno;
  return typeof deno?.execPath === "function" ? deno.execPath() : "deno";
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A crashed test run must not leave servers behind.
  process.on("exit", () => {
    for (const child of live) child.kill("SIGKILL");
  });
}

type Spawned = { child: ChildProcess; closed: Promise<void>; port: number };

/**
 * What the test servers run: the bundled server that `deno task start` runs when
 * CUBBY_SERVER_BUNDLE names its entry (scripts/test.ts bundles it once for the whole run), else
 * main.ts from its sources.
 */
export function serverEntry(): string {
  return process.env.CUBBY_SERVER_BUNDLE || "main.ts";
}

/**
 * Spawns the server (`entry`, serverEntry() by default) and resolves once it prints its listening
 * line; rejects if it exits first.
 */
function spawnServer(
  root: string,
  env: Record<string, string>,
  log: { text: string },
  timeoutMs: number,
  denoFlags: string[] = [],
  entry = serverEntry(),
): Promise<Spawned> {
  // A bundle outside the repository has no deno.json to enable KV and cron.
  const unstable = ["--unstable-kv", "--unstable-cron"];
  const child = spawn(denoBinary(), ["run", "-A", ...unstable, ...denoFlags, entry], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  installExitHook();
  const closed = new Promise<void>((done) => {
    child.on("close", () => {
      live.delete(child);
      done();
    });
  });
  const start = log.text.length;
  return new Promise<Spawned>((resolveStart, rejectStart) => {
    let settled = false;
    const timer = setTimeout(() => {
      fail(`did not print its listening line within ${timeoutMs} ms`);
      child.kill("SIGKILL");
    }, timeoutMs);
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      rejectStart(new Error(`Cubby test server ${why}. Output:\n${log.text.slice(start)}`));
    };
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      if (log.text.length < MAX_OUTPUT_CHARS) log.text += text;
      if (process.env.CUBBY_SERVER_LOG === "1") process.stderr.write(`[cubby] ${text}`);
      const m = log.text.slice(start).match(LISTENING);
      if (m && !settled) {
        settled = true;
        clearTimeout(timer);
        resolveStart({ child, closed, port: Number(m[2]) });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("error", (err) => fail(`could not be started: ${err.message}`));
    child.on("exit", (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
  });
}

/** Sends `signal` and waits for the process to close; escalates to SIGKILL after `graceMs`. */
async function terminate(
  s: Spawned,
  signal: "SIGTERM" | "SIGKILL",
  graceMs = 5_000,
): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return await s.closed;
  s.child.kill(signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const escalate = new Promise<void>((done) => {
    timer = setTimeout(() => {
      s.child.kill("SIGKILL");
      done();
    }, graceMs);
  });
  await Promise.race([s.closed, escalate]);
  clearTimeout(timer);
  await s.closed;
}

/**
 * Starts the real server on PORT=0, HOST=127.0.0.1, a fresh DATA_DIR, the TEST_ADMIN account
 * and SWEEP_INTERVAL_MS=0; `env` overrides any of these (an empty ADMIN_PASSWORD makes the
 * server generate and print one, like a first start). Throws with the server's output when it
 * does not come up.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: StartServerOptions = {},
): Promise<TestServer> {
  const root = findRepoRoot();
  const ownsDir = !options.dataDir;
  const dataDir = options.dataDir ?? await mkdtemp(join(tmpdir(), "cubby-server-"));
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const inherited: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !ISOLATED_VARS.includes(k)) inherited[k] = v;
  }
  let baseEnv: Record<string, string> = {
    ...inherited,
    NO_COLOR: "1",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_USERNAME: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    SWEEP_INTERVAL_MS: "0",
    ...env,
  };
  const log = { text: "" };
  let current: Spawned | null = null;
  try {
    current = await spawnServer(root, baseEnv, log, timeoutMs, options.denoFlags, options.entry);
  } catch (err) {
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  let port = current.port;
  const host = String(baseEnv.HOST) === "0.0.0.0" ? "127.0.0.1" : baseEnv.HOST;

  const server: TestServer = {
    get url() {
      return `http://${host}:${port}`;
    },
    get port() {
      return port;
    },
    dataDir,
    output: () => log.text,
    async stop() {
      if (current) await terminate(current, "SIGTERM");
      current = null;
      if (ownsDir) await removeDir(dataDir);
    },
    async kill9() {
      if (current) await terminate(current, "SIGKILL");
      current = null;
    },
    async restart(extraEnv = {}) {
      if (current) await terminate(current, "SIGTERM");
      current = null;
      baseEnv = { ...baseEnv, ...extraEnv };
      // Keep the URL stable when the port is still free; otherwise take a new one.
      try {
        current = await spawnServer(
          root,
          { ...baseEnv, PORT: String(port) },
          log,
          timeoutMs,
          options.denoFlags,
          options.entry,
        );
      } catch (err) {
        if (!/AddrInUse|address already in use/i.test(String(err))) throw err;
        current = await spawnServer(
          root,
          { ...baseEnv, PORT: "0" },
          log,
          timeoutMs,
          options.denoFlags,
          options.entry,
        );
      }
      port = current.port;
    },
    [Symbol.asyncDispose]: () => server.stop(),
  };
  return server;
}

/** Why a server started with `env` did not come up (its error, as text); "" when it did. */
export async function startFailure(env: Record<string, string>): Promise<string> {
  try {
    await (await startServer(env)).stop();
    return "";
  } catch (err) {
    return String(err);
  }
}

/** Removes a directory, retrying briefly (SQLite may still be closing its files). */
async function removeDir(dir: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      return await rm(dir, { recursive: true, force: true });
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Runs `fn` while `server` runs and stops the server after; when `fn` fails, the server's last
 * output is printed first (what it logged is often the reason).
 */
export async function whileServing(server: TestServer, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    console.error(`server output:\n${server.output().slice(-3000)}`);
    throw err;
  } finally {
    await server.stop();
  }
}

/** Logs in as the admin of `server` and returns the session token. Throws on failure. */
export async function loginAdmin(
  server: Pick<TestServer, "url">,
  credentials: { username: string; password: string } = TEST_ADMIN,
): Promise<string> {
  const res = await fetch(`${server.url}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  const body = await res.json();
  if (!res.ok || !body.success) {
    throw new Error(`admin login failed (${res.status}): ${JSON.stringify(body)}`);
  }
  return body.data.token as string;
}
