/**
 * Helpers for the large-file test, the curl shell test and `bench/files.ts`: a real server with
 * a raised upload limit, API keys, pseudo-random byte streams that are never held in memory
 * whole, streaming SHA-256, and peak-RSS sampling of the server process from /proc.
 */
import { createHash } from "node:crypto";
import {
  loginAdmin,
  startServer,
  type StartServerOptions,
  type TestServer,
} from "../helpers/server.ts";

export const MiB = 1024 * 1024;
const BLOCK = MiB;

/** A running test server with the pid of its process. */
export type FilesServer = TestServer & { pid: number };

/**
 * Starts the real server and raises `max_upload_size` to `maxUploadGiB` GB through the settings
 * API (`PUT /api/admin/settings/group/1`), as an admin would.
 */
export async function startFilesServer(
  maxUploadGiB = 8,
  env: Record<string, string> = {},
  options: StartServerOptions = {},
): Promise<FilesServer> {
  const server = await startServer(env, options);
  try {
    const res = await fetch(`${server.url}/api/admin/settings/group/1`, {
      method: "PUT",
      headers: { authorization: await adminAuth(server), "content-type": "application/json" },
      body: JSON.stringify({ max_upload_size: maxUploadGiB, max_upload_size_unit: "GB" }),
    });
    const body = await res.json();
    if (!res.ok) {
      throw new Error(`raising max_upload_size answered ${res.status}: ${JSON.stringify(body)}`);
    }
    return Object.assign(server, { pid: await findServerPid(server.dataDir) });
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/**
 * The pid of the server started by this process on `dataDir`: a child of ours whose
 * environment holds `DATA_DIR=<dataDir>` (startServer does not expose the pid).
 */
export async function findServerPid(dataDir: string): Promise<number> {
  const needle = `DATA_DIR=${dataDir}`;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== Deno.pid) continue;
      const environ = await Deno.readTextFile(`/proc/${entry.name}/environ`);
      if (environ.split("\0").includes(needle)) return Number(entry.name);
    } catch { /* the process went away, or is not ours */ }
  }
  throw new Error(`cannot find the server process for ${dataDir}`);
}

/** Reads VmRSS and VmHWM (peak RSS since start or the last reset) of a process, in bytes. */
export async function readRss(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+) kB`))?.[1] ?? 0);
  return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
}

/**
 * Samples a process's RSS every `intervalMs` until stopped. The kernel's own peak (VmHWM) is
 * reset at the start when /proc/<pid>/clear_refs allows it, so `peak` covers only this phase
 * even between samples; without the reset, `peak` is the highest sample.
 */
export async function sampleRss(pid: number, intervalMs = 100) {
  let hwmReset = false;
  try {
    await Deno.writeTextFile(`/proc/${pid}/clear_refs`, "5");
    hwmReset = true;
  } catch { /* older kernel or not permitted: rely on the samples */ }
  const start = await readRss(pid);
  let maxSample = start.rss;
  let samples = 1;
  const timer = setInterval(() => {
    readRss(pid).then((r) => {
      maxSample = Math.max(maxSample, r.rss);
      samples++;
    }).catch(() => {});
  }, intervalMs);
  return {
    /** Stops sampling; returns the RSS at the start, the peak, and how it was measured. */
    async stop() {
      clearInterval(timer);
      const end = await readRss(pid);
      maxSample = Math.max(maxSample, end.rss);
      const peak = hwmReset ? Math.max(end.hwm, maxSample) : maxSample;
      return { start: start.rss, peak, maxSample, samples: samples + 1, hwmReset };
    },
  };
}

/** 1 MiB of seeded xorshift32 output: the source every pseudo-random chunk is cut from. */
function baseBlock(seed: number): Uint8Array {
  const words = new Uint32Array(BLOCK / 4);
  let x = (seed >>> 0) || 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  return new Uint8Array(words.buffer);
}

/**
 * A stream of `size` pseudo-random bytes in 1 MiB chunks, produced on demand (pull), so at most
 * a few chunks exist at a time. Chunk `i` is the seeded base block rotated by an offset derived
 * from `i`, with `i` written into its first 8 bytes, so no two chunks are equal and a reordered,
 * dropped or repeated chunk changes the hash. `onChunk` sees each chunk before it is sent.
 */
export function pseudoRandomStream(
  size: number,
  opts: { seed?: number; onChunk?: (chunk: Uint8Array) => void } = {},
): ReadableStream<Uint8Array> {
  const base = baseBlock(opts.seed ?? 1);
  let sent = 0;
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const length = Math.min(BLOCK, size - sent);
      const chunk = new Uint8Array(length);
      const offset = (index * 40_503 * 8) % BLOCK;
      const head = base.subarray(offset, Math.min(BLOCK, offset + length));
      chunk.set(head);
      if (head.length < length) chunk.set(base.subarray(0, length - head.length), head.length);
      if (length >= 8) new DataView(chunk.buffer).setBigUint64(0, BigInt(index), true);
      sent += length;
      index++;
      opts.onChunk?.(chunk);
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 2 });
}

/** Writes `size` pseudo-random bytes to `path`; returns their SHA-256 (hex). */
export async function writePseudoRandomFile(path: string, size: number, seed = 1) {
  const hash = createHash("sha256");
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  await pseudoRandomStream(size, { seed, onChunk: (c) => hash.update(c) }).pipeTo(file.writable);
  return hash.digest("hex");
}

/** Reads a stream to its end; returns its SHA-256 (hex) and length. */
export async function hashStream(stream: ReadableStream<Uint8Array>) {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    bytes += chunk.byteLength;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/** The SHA-256 (hex) and size of a file, read as a stream. */
export async function hashFile(path: string) {
  const file = await Deno.open(path);
  return await hashStream(file.readable);
}

/** "Bearer <token>" for the admin of `server`. */
export async function adminAuth(server: Pick<TestServer, "url">): Promise<string> {
  return `Bearer ${await loginAdmin(server)}`;
}

/** Creates an API key through the admin API; returns the raw key. */
export async function createApiKey(
  server: Pick<TestServer, "url">,
  permissions: Record<string, boolean>,
  name = `key-${crypto.randomUUID().slice(0, 8)}`,
): Promise<string> {
  const res = await fetch(`${server.url}/api/admin/api-keys`, {
    method: "POST",
    headers: { authorization: await adminAuth(server), "content-type": "application/json" },
    body: JSON.stringify({ name, permissions }),
  });
  const body = await res.json();
  if (res.status !== 201 || !body.data?.key) {
    throw new Error(`creating an API key answered ${res.status}: ${JSON.stringify(body)}`);
  }
  return body.data.key as string;
}

/** Runs a command; returns its stdout as text, or throws with its stderr when it fails. */
export async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")} exited ${out.code}:\n${new TextDecoder().decode(out.stderr)}` +
        `\n${text}`,
    );
  }
  return text;
}
