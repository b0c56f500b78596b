/** Benchmark processes pinned to a core, and their memory, for bench/http.ts. */

/** A benchmark process started by startPinned. */
export type Pinned = { url: string; pid: number; output: () => string; stop: () => Promise<void> };

/**
 * Starts `deno run -A [flags] script` pinned to `core` in `cwd`; resolves once it prints its URL.
 * `flags` go to `deno run` (bench/profile.ts passes `--cpu-prof`).
 */
export async function startPinned(
  script: string,
  core: string,
  cwd: string,
  env: Record<string, string> = {},
  flags: string[] = [],
): Promise<Pinned> {
  const child = new Deno.Command("taskset", {
    args: ["-c", core, Deno.execPath(), "run", "-A", ...flags, script],
    cwd,
    env: { NO_COLOR: "1", PORT: "0", ...env },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let seen = "";
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) seen += decoder.decode(chunk);
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const deadline = Date.now() + 60_000;
  while (true) {
    const m = seen.match(/listening on (http:\/\/\S+)/);
    if (m) {
      return {
        url: m[1],
        pid: child.pid,
        output: () => seen,
        stop: async () => {
          child.kill("SIGTERM");
          await child.status;
          await pumps;
        },
      };
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      await child.status;
      throw new Error(`${script} did not start:\n${seen}`);
    }
    const status = await Promise.race([child.status, new Promise((r) => setTimeout(r, 50))]);
    if (status) throw new Error(`${script} exited early:\n${seen}`);
  }
}

/** A process's resident memory (`VmRSS`) and its peak (`VmHWM`), in MiB. */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** A process's CPU time so far (user + system, all threads), in milliseconds. */
export async function cpuTimeMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return ticks * 10; // USER_HZ is 100 on Linux
}
