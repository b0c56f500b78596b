/**
 * Runs an external engine (denokv, SeaweedFS, nginx) as a child process for a test: picks free
 * loopback ports, polls a readiness probe until it answers (never a fixed sleep), keeps the
 * process output for failure messages, and stops it with SIGTERM, then SIGKILL.
 *
 * Only `node:` built-ins, so that Playwright's setup can import it too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import process from "node:process";

const MAX_OUTPUT_CHARS = 200_000;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** A free TCP port on 127.0.0.1 (the kernel picks it; it is free when this returns). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => port ? resolve(port) : reject(new Error("no port assigned")));
    });
  });
}

/** `n` distinct free ports. */
export async function freePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** A running engine process. */
export type EngineProcess = {
  readonly child: ChildProcess;
  /** What the process wrote to stdout and stderr so far (the first 200,000 characters). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
};

export type StartEngineOptions = {
  name: string;
  bin: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Resolves true once the engine serves; called again (every 50 ms) until then. */
  ready: () => Promise<boolean>;
  timeoutMs?: number;
};

/** Spawns the engine and resolves once `ready()` is true; rejects with its output otherwise. */
export async function startEngine(o: StartEngineOptions): Promise<EngineProcess> {
  const child = spawn(o.bin, o.args, {
    cwd: o.cwd,
    env: { ...process.env, ...o.env } as Record<string, string>,
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A crashed test run must not leave engines behind.
    process.on("exit", () => {
      for (const c of live) c.kill("SIGKILL");
    });
  }
  let text = "";
  const onData = (chunk: Buffer) => {
    if (text.length < MAX_OUTPUT_CHARS) text += chunk.toString("utf8");
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const state: { exited: string | null } = { exited: null };
  const closed = new Promise<void>((done) => {
    child.on("close", (code, signal) => {
      state.exited ??= `exited (code ${code}, signal ${signal})`;
      live.delete(child);
      done();
    });
    child.on("error", (err) => {
      // A spawn failure may come without a "close" event.
      state.exited ??= `could not be started: ${err.message}`;
      if (child.pid === undefined) {
        live.delete(child);
        done();
      }
    });
  });
  const stop = async (graceMs = 5_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const escalate = new Promise<void>((done) => {
      timer = setTimeout(() => {
        child.kill("SIGKILL");
        done();
      }, graceMs);
    });
    await Promise.race([closed, escalate]);
    clearTimeout(timer);
    await closed;
  };
  const engine: EngineProcess = { child, output: () => text, stop };
  const timeoutMs = o.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (true) {
    if (state.exited) {
      await closed;
      throw new Error(`${o.name} ${state.exited} before it was ready. Output:\n${text}`);
    }
    try {
      if (await o.ready()) return engine;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline) {
      await stop(1_000);
      throw new Error(
        `${o.name} was not ready within ${timeoutMs} ms (last probe: ${lastError || "not yet"}). ` +
          `Output:\n${text}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts an engine that keeps its files in `dir`, which goes with it: removed when the engine
 * does not come up (the error then ends with `failureNote()`, what it left there worth reading)
 * and after `stop()`, which stops it once however often it is called.
 */
export async function startEngineIn(
  dir: string,
  o: StartEngineOptions,
  failureNote: () => Promise<string> = () => Promise.resolve(""),
): Promise<EngineProcess> {
  let engine: EngineProcess;
  try {
    engine = await startEngine(o);
  } catch (err) {
    const note = await failureNote();
    await rm(dir, { recursive: true, force: true });
    if (!note) throw err;
    throw new Error(`${err instanceof Error ? err.message : err}\n${note}`);
  }
  let stopped: Promise<void> | null = null;
  return {
    child: engine.child,
    output: () => engine.output(),
    stop: (graceMs) =>
      stopped ??= engine.stop(graceMs).then(() => rm(dir, { recursive: true, force: true })),
  };
}
