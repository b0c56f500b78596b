/**
 * What bench/files.ts and bench/files_s3.ts share: timing with RSS sampling, throughput series,
 * and the client side of a transfer (curl uploads and downloads, optionally pinned to core 1).
 */
import { type FilesServer, hashStream, run, sampleRss } from "../tests/shell/helpers.ts";

type Peak = { peak: number };

/** Throughput samples (MiB/s) of one operation, and the server's peak RSS during it. */
export class Series {
  mibps: number[] = [];
  peak = 0;
  /** Adds one run of `sizeMb` MiB that took `seconds`, with the server's RSS during it. */
  add(sizeMb: number, seconds: number, rss?: Peak) {
    this.mibps.push(sizeMb / seconds);
    if (rss) this.peak = Math.max(this.peak, rss.peak);
  }
  /** The fastest run: other work on a shared machine only ever slows a run down. */
  get best(): number {
    return Math.max(...this.mibps);
  }
}

/** Runs `fn`, timing it and (with a pid) sampling that process's RSS. */
export async function timed<T>(fn: () => Promise<T>, pid?: number) {
  const mem = pid ? await sampleRss(pid) : null;
  const t0 = performance.now();
  const value = await fn();
  const seconds = (performance.now() - t0) / 1000;
  return { value, seconds, rss: await mem?.stop() };
}

/** The client of the benchmark: curl and shell tools, on core 1 when `pin`. */
export class Client {
  constructor(private server: FilesServer, readonly auth: string, readonly pin: boolean) {}

  /** Runs a command on the client core (core 1) when pinned. */
  run(cmd: string, args: string[]): Promise<string> {
    return this.pin ? run("taskset", ["-c", "1", cmd, ...args]) : run(cmd, args);
  }

  /** `curl -T` upload to upload-direct; returns the share's id and slug. */
  async upload(file: string, query = "") {
    const out = await this.run("curl", [
      "-sS",
      "--fail-with-body",
      "-T",
      file,
      "-H",
      `Authorization: ${this.auth}`,
      `${this.server.url}/api/upload-direct/bench.bin${query}`,
    ]);
    const body = JSON.parse(out);
    if (body.code !== 201) throw new Error(`upload failed: ${out}`);
    return body.data as { id: string; slug: string; size: number };
  }

  /** `curl -o /dev/null` of a share's download. */
  download(slug: string) {
    return this.run("curl", [
      "-sS",
      "--fail",
      "-o",
      "/dev/null",
      `${this.server.url}/api/file-download/${slug}`,
    ]);
  }

  /** Downloads once with fetch and compares the SHA-256, so a fast wrong answer cannot pass. */
  async verify(slug: string, sha256: string) {
    const res = await fetch(`${this.server.url}/api/file-download/${slug}`);
    const got = await hashStream(res.body!);
    if (got.sha256 !== sha256) throw new Error(`download of ${slug} differs from the source`);
  }

  /** Deletes a share and its file. */
  async deleteShare(id: string) {
    const res = await fetch(`${this.server.url}/api/files/batch-delete`, {
      method: "POST",
      headers: { authorization: this.auth, "content-type": "application/json" },
      body: JSON.stringify({ ids: [id], delete_mode: "both" }),
    });
    await res.body?.cancel();
  }
}
