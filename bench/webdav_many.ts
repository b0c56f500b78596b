/**
 * Many small files through WebDAV, against `rclone serve webdav` started in the same run on the
 * same kind of folder (a temporary directory on the same disk) with the same client: 4 KiB PUTs,
 * 16 at once, into one folder in four batches of `files` (0–1k, 1k–2k, 2k–3k, 3k–4k files by
 * default), then PROPFIND Depth 1 of that folder. The servers run on core 0 and the client
 * (`curl --parallel`, one process per batch, with one connection per transfer slot kept alive)
 * on core 1, so the client never steals the server's CPU. Used by bench/webdav.ts.
 */
import { join } from "node:path";
import { startPinned } from "./processes.ts";
import { TEST_ADMIN } from "../tests/helpers/server.ts";
import { loginAdmin } from "../tests/helpers/server.ts";

const SERVER_CORE = "0";
const CLIENT_CORE = "1";
const CONCURRENCY = 16;
const FILE_BYTES = 4096;

/** One server under test: where its folder is, and how to authenticate. */
type Target = { name: string; folderUrl: string; user: string; stop: () => Promise<void> };

/** What one server did: files/s per batch and PROPFIND times in ms. */
export type ManyResult = { name: string; batches: number[]; propfindMs: number[] };

/** Runs curl on the client core with `args`; returns its stdout. Throws when curl fails. */
async function curl(args: string[]): Promise<string> {
  const out = await new Deno.Command("taskset", {
    args: ["-c", CLIENT_CORE, "curl", "-sS", "-H", "Expect:", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`curl: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** PUTs files `from`..`to`-1 into the folder, CONCURRENCY at once; returns files/s. */
async function putBatch(t: Target, source: string, work: string, from: number, to: number) {
  const config = join(work, `batch-${t.name}-${from}.txt`);
  const lines: string[] = [];
  for (let i = from; i < to; i++) {
    const name = `f${String(i).padStart(6, "0")}.bin`;
    lines.push(
      `url = "${t.folderUrl}${name}"`,
      `upload-file = "${source}"`,
      `output = "/dev/null"`,
    );
  }
  await Deno.writeTextFile(config, lines.join("\n") + "\n");
  const start = performance.now();
  const codes = await curl([
    "-Z",
    "--parallel-max",
    String(CONCURRENCY),
    "--parallel-immediate",
    "-u",
    t.user,
    "-w",
    "%{http_code}\n",
    "-K",
    config,
  ]);
  const seconds = (performance.now() - start) / 1000;
  const bad = codes.trim().split("\n").filter((c) => c !== "201" && c !== "204");
  if (bad.length > 0) throw new Error(`${t.name}: ${bad.length} PUTs failed (${bad[0]})`);
  return (to - from) / seconds;
}

/** One PROPFIND Depth 1 of the folder (allprop: no body); returns ms and the entry count. */
async function propfind(t: Target): Promise<{ ms: number; entries: number }> {
  const start = performance.now();
  const body = await curl(["-X", "PROPFIND", "-H", "Depth: 1", "-u", t.user, t.folderUrl]);
  const ms = performance.now() - start;
  return { ms, entries: body.match(/<(?:[A-Za-z]+:)?response[ >]/g)?.length ?? 0 };
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** `rclone serve webdav` on a fresh directory, pinned to the server core. */
async function startRclone(work: string): Promise<Target> {
  const root = join(work, "rclone");
  await Deno.mkdir(join(root, "many"), { recursive: true });
  const port = freePort();
  const child = new Deno.Command("taskset", {
    args: ["-c", SERVER_CORE, "rclone", "serve", "webdav", root, "--addr", `127.0.0.1:${port}`],
    stdout: "null",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0;; i++) {
    try {
      await (await fetch(`${url}/`, { method: "OPTIONS" })).body?.cancel();
      break;
    } catch (err) {
      if (i > 200) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    name: "rclone",
    folderUrl: `${url}/many/`,
    user: "x:x",
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** The real Cubby server (main.ts) pinned to the server core, with a local mount `/bench`. */
async function startCubby(root: string, work: string): Promise<Target> {
  const dataDir = join(work, "cubby");
  const server = await startPinned("main.ts", SERVER_CORE, root, {
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_USERNAME: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    SWEEP_INTERVAL_MS: "0",
  });
  const bearer = { authorization: `Bearer ${await loginAdmin({ url: server.url })}` };
  const cfgs = await (await fetch(`${server.url}/api/s3-configs`, { headers: bearer })).json();
  const local = cfgs.data.find((c: { provider_type: string }) => c.provider_type === "local");
  const created = await fetch(`${server.url}/api/mount/create`, {
    method: "POST",
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({
      name: "bench",
      mount_path: "/bench",
      storage_type: "local",
      storage_config_id: local.id,
      webdav_policy: "native_proxy",
    }),
  });
  if (created.status !== 201) throw new Error(`mount: ${await created.text()}`);
  const user = `${TEST_ADMIN.username}:${TEST_ADMIN.password}`;
  const folderUrl = `${server.url}/dav/bench/many/`;
  await curl(["-X", "MKCOL", "-u", user, "-o", "/dev/null", folderUrl]);
  return { name: "Cubby", folderUrl, user, stop: server.stop };
}

/** Measures one server: the PUT batches, then `propfinds` PROPFINDs of the full folder. */
async function measure(t: Target, source: string, work: string, opts: ManyOptions) {
  const batches: number[] = [];
  for (let b = 0; b < opts.batches; b++) {
    const rate = await putBatch(t, source, work, b * opts.files, (b + 1) * opts.files);
    batches.push(rate);
    console.log(`${t.name}: batch ${b + 1}: ${rate.toFixed(0)} files/s`);
  }
  const propfindMs: number[] = [];
  const want = opts.batches * opts.files + 1; // the folder itself and its members
  for (let i = 0; i < opts.propfinds; i++) {
    const { ms, entries } = await propfind(t);
    if (entries !== want) throw new Error(`${t.name}: PROPFIND listed ${entries}, not ${want}`);
    propfindMs.push(ms);
  }
  console.log(`${t.name}: PROPFIND ${propfindMs.map((m) => m.toFixed(0)).join(", ")} ms`);
  return { name: t.name, batches, propfindMs };
}

/** What a run of the small-file cases does. */
export type ManyOptions = { files: number; batches: number; propfinds: number };

/** Runs both servers, one after the other, and returns their results (Cubby first). */
export async function measureMany(root: string, opts: ManyOptions): Promise<ManyResult[]> {
  const work = await Deno.makeTempDir({ prefix: "cubby-bench-dav-many-" });
  try {
    const source = join(work, "source.bin");
    await Deno.writeFile(source, crypto.getRandomValues(new Uint8Array(FILE_BYTES)));
    const results: ManyResult[] = [];
    for (const start of [() => startCubby(root, work), () => startRclone(work)]) {
      const t = await start();
      try {
        // Warm up: the first Basic login runs the password KDF once (later ones are remembered).
        await curl(["-X", "OPTIONS", "-u", t.user, "-o", "/dev/null", t.folderUrl]);
        results.push(await measure(t, source, work, opts));
      } finally {
        await t.stop();
      }
    }
    return results;
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The Markdown table of a run: rates and times, and Cubby's ratios to rclone. */
export function manyTable(results: ManyResult[], opts: ManyOptions): string {
  const [cubby, rclone] = results;
  const f0 = (n: number) => n.toFixed(0);
  const f2 = (n: number) => n.toFixed(2);
  const rows: string[] = [];
  for (let b = 0; b < opts.batches; b++) {
    const range = `${(b * opts.files).toLocaleString("en")}–${
      ((b + 1) * opts.files).toLocaleString("en")
    }`;
    rows.push(
      `| PUT files/s, folder holding ${range} files | ${f0(cubby.batches[b])} | ` +
        `${f0(rclone.batches[b])} | ${f2(cubby.batches[b] / rclone.batches[b])} | ` +
        `${f2(cubby.batches[b] / cubby.batches[0])} | ${
          f2(rclone.batches[b] / rclone.batches[0])
        } |`,
    );
  }
  const entries = (opts.batches * opts.files).toLocaleString("en");
  const pc = median(cubby.propfindMs);
  const pr = median(rclone.propfindMs);
  rows.push(
    `| PROPFIND Depth 1 of ${entries} entries, ms (median of ${opts.propfinds}) | ${f0(pc)} | ` +
      `${f0(pr)} | ${f2(pc / pr)} | | |`,
  );
  return [
    `| Case | Cubby | rclone | Cubby / rclone | Cubby / its first batch | ` +
    `rclone / its first batch |`,
    "| ---- | ----: | -----: | -------------: | ----------------------: | -----------------------: |",
    ...rows,
  ].join("\n");
}
