/**
 * Many small files through WebDAV, against `rclone serve webdav` started in the same run on the
 * same kind of folder (a temporary directory on the same disk) with the same client: 4 KiB PUTs,
 * 16 at once, into one folder in four batches of `files` (0–1k, 1k–2k, 2k–3k, 3k–4k files by
 * default); then one more batch after a PROPFIND of each of 2,000 other folders (Cubby keeps
 * their listings: a write's cost must not grow with them); then PROPFIND Depth 1 of the folder.
 * The PUTs of the first batches also go to the Deno floor
 * (bench/dav_floor.ts: a bare Deno.serve that writes each file durably, as Cubby does, and nothing
 * else). The servers run on core 0 and take turns, batch by batch, so that all meet the same load
 * from other work; the client (`curl --parallel`, one process per batch, connections kept alive)
 * runs on core 1, so it never steals the servers' CPU. Used by bench/webdav.ts.
 */
import { join } from "node:path";
import { cpuTimeMs, startPinned } from "./processes.ts";
import { serverCommand } from "./server_entry.ts";
import { loginAdmin, TEST_ADMIN } from "../tests/helpers/server.ts";

const SERVER_CORE = "0";
const CLIENT_CORE = "1";
const CONCURRENCY = 16;
/** Other folders listed before the last batch of PUTs. */
const LISTED_FOLDERS = 2_000;
const FILE_BYTES = 4096;

/** One server under test: where its folder is, how to authenticate, and its process. */
type Target = {
  name: string;
  /** Takes the PUTs only (the Deno floor answers no PROPFIND). */
  putsOnly?: boolean;
  folderUrl: string;
  user: string;
  pid: number;
  stop: () => Promise<void>;
};

/** Wall and server CPU time of one request, in ms. */
type Timed = { ms: number; cpuMs: number };

/**
 * What one server did: files/s and its CPU ms per file for each batch, and PROPFINDs of the full
 * folder, each right after a write to it (`cold`) and then again (`warm`).
 */
export type ManyResult = {
  name: string;
  batches: number[];
  cpuPerFile: number[];
  /** The batch after LISTED_FOLDERS other folders were listed: files/s and CPU ms per file. */
  afterListing: number;
  afterListingCpu: number;
  cold: Timed[];
  warm: Timed[];
};

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

/** One PROPFIND Depth 1 of the folder (allprop: no body); checks it lists `want` entries. */
async function propfind(t: Target, want: number): Promise<Timed> {
  const cpu = await cpuTimeMs(t.pid);
  const start = performance.now();
  const body = await curl(["-X", "PROPFIND", "-H", "Depth: 1", "-u", t.user, t.folderUrl]);
  const ms = performance.now() - start;
  const entries = body.match(/<(?:[A-Za-z]+:)?response[ >]/g)?.length ?? 0;
  if (entries !== want) throw new Error(`${t.name}: PROPFIND listed ${entries}, not ${want}`);
  return { ms, cpuMs: await cpuTimeMs(t.pid) - cpu };
}

/** Creates LISTED_FOLDERS folders beside the bench folder and lists each (PROPFIND Depth 1). */
async function listFolders(t: Target, work: string): Promise<void> {
  const base = t.folderUrl.slice(0, -"many/".length);
  const config = join(work, `folders-${t.name}.txt`);
  const lines: string[] = [];
  for (let i = 0; i < LISTED_FOLDERS; i++) {
    lines.push(`url = "${base}d${i}/"`, `output = "/dev/null"`);
  }
  await Deno.writeTextFile(config, lines.join("\n") + "\n");
  const run = async (method: string, want: string, extra: string[] = []) => {
    const codes = await curl([
      "-Z",
      "--parallel-max",
      String(CONCURRENCY),
      "-u",
      t.user,
      "-X",
      method,
      ...extra,
      "-w",
      "%{http_code}\n",
      "-K",
      config,
    ]);
    const bad = codes.trim().split("\n").filter((c) => c !== want);
    if (bad.length > 0) throw new Error(`${t.name}: ${bad.length} ${method}s failed (${bad[0]})`);
  };
  await run("MKCOL", "201");
  await run("PROPFIND", "207", ["-H", "Depth: 1"]);
}

/** A write to the folder (a file put and deleted again), so a listing cache must load anew. */
async function touchFolder(t: Target, source: string): Promise<void> {
  const url = `${t.folderUrl}touch.tmp`;
  await curl(["-u", t.user, "-T", source, "-o", "/dev/null", url]);
  await curl(["-u", t.user, "-X", "DELETE", "-o", "/dev/null", url]);
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
      if (i > 200) {
        child.kill("SIGTERM");
        await child.status;
        throw err;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    name: "rclone",
    folderUrl: `${url}/many/`,
    user: "x:x",
    pid: child.pid, // taskset runs rclone in its own process
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** The Deno floor (bench/dav_floor.ts) on a fresh directory, pinned to the server core. */
async function startFloor(root: string, work: string): Promise<Target> {
  const dir = join(work, "floor");
  await Deno.mkdir(join(dir, "many"), { recursive: true });
  const server = await startPinned("bench/dav_floor.ts", SERVER_CORE, root, { DIR: dir });
  return {
    name: "Deno floor",
    putsOnly: true,
    folderUrl: `${server.url}/many/`,
    user: "x:x",
    pid: server.pid,
    stop: server.stop,
  };
}

/** Mounts `/bench` on the server's default local storage config, served by WebDAV itself. */
export async function mountBench(url: string, token: string): Promise<void> {
  const bearer = { authorization: `Bearer ${token}` };
  const cfgs = await (await fetch(`${url}/api/s3-configs`, { headers: bearer })).json();
  const local = cfgs.data.find((c: { provider_type: string }) => c.provider_type === "local");
  const created = await fetch(`${url}/api/mount/create`, {
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
}

/**
 * The real Cubby server, as `deno task start` runs it (bench/server_entry.ts), pinned to the
 * server core, with a local mount `/bench`.
 */
async function startCubby(root: string, work: string): Promise<Target> {
  const dataDir = join(work, "cubby");
  const cubby = await serverCommand("bundle");
  const server = await startPinned(cubby.script, SERVER_CORE, root, {
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_USERNAME: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    SWEEP_INTERVAL_MS: "0",
  }, cubby.flags);
  try {
    await mountBench(server.url, await loginAdmin({ url: server.url }));
  } catch (err) {
    await server.stop();
    throw err;
  }
  const user = `${TEST_ADMIN.username}:${TEST_ADMIN.password}`;
  const folderUrl = `${server.url}/dav/bench/many/`;
  await curl(["-X", "MKCOL", "-u", user, "-o", "/dev/null", folderUrl]);
  return { name: "Cubby", folderUrl, user, pid: server.pid, stop: server.stop };
}

/**
 * Measures the servers side by side, taking turns: each batch of PUTs, and each PROPFIND, runs
 * on one server right after the other, so that both meet the same load from other work on a
 * shared machine.
 */
async function measure(targets: Target[], source: string, work: string, opts: ManyOptions) {
  const results: ManyResult[] = targets.map((t) => ({
    name: t.name,
    batches: [],
    cpuPerFile: [],
    afterListing: NaN,
    afterListingCpu: NaN,
    cold: [],
    warm: [],
  }));
  for (let b = 0; b < opts.batches; b++) {
    for (const [i, t] of targets.entries()) {
      const cpu = await cpuTimeMs(t.pid);
      const rate = await putBatch(t, source, work, b * opts.files, (b + 1) * opts.files);
      const perFile = (await cpuTimeMs(t.pid) - cpu) / opts.files;
      results[i].batches.push(rate);
      results[i].cpuPerFile.push(perFile);
      console.log(`${t.name}: batch ${b + 1}: ${rate.toFixed(0)} files/s, ${perFile} ms CPU/file`);
    }
  }
  const from = opts.batches * opts.files;
  for (const [i, t] of targets.entries()) {
    if (t.putsOnly) continue;
    await listFolders(t, work);
    const cpu = await cpuTimeMs(t.pid);
    results[i].afterListing = await putBatch(t, source, work, from, from + opts.files);
    results[i].afterListingCpu = (await cpuTimeMs(t.pid) - cpu) / opts.files;
    console.log(
      `${t.name}: after listing ${LISTED_FOLDERS} folders: ${
        results[i].afterListing.toFixed(0)
      } files/s, ${results[i].afterListingCpu} ms CPU/file`,
    );
  }
  const want = (opts.batches + 1) * opts.files + 1; // the folder itself and its members
  for (let n = 0; n < opts.propfinds; n++) {
    for (const [i, t] of targets.entries()) {
      if (t.putsOnly) continue;
      if (n > 0) await touchFolder(t, source);
      results[i].cold.push(await propfind(t, want));
      results[i].warm.push(await propfind(t, want));
    }
  }
  const show = (xs: Timed[]) => xs.map((x) => `${x.ms.toFixed(0)} (${x.cpuMs})`).join(", ");
  for (const r of results.filter((r) => r.cold.length > 0)) {
    console.log(
      `${r.name}: PROPFIND ms (CPU ms) after a write ${show(r.cold)}; again ${show(r.warm)}`,
    );
  }
  return results;
}

/** What a run of the small-file cases does. */
export type ManyOptions = { files: number; batches: number; propfinds: number };

/** Runs Cubby, rclone and the Deno floor, and returns their results in that order. */
export async function measureMany(root: string, opts: ManyOptions): Promise<ManyResult[]> {
  const work = await Deno.makeTempDir({ prefix: "cubby-bench-dav-many-" });
  const targets: Target[] = [];
  try {
    const source = join(work, "source.bin");
    await Deno.writeFile(source, crypto.getRandomValues(new Uint8Array(FILE_BYTES)));
    // Each one joins `targets` as soon as it runs, so that a later one failing to start stops it.
    targets.push(await startCubby(root, work));
    targets.push(await startRclone(work));
    targets.push(await startFloor(root, work));
    for (const t of targets) {
      // Warm up: the first Basic login runs the password KDF once (later ones are remembered).
      await curl(["-X", "OPTIONS", "-u", t.user, "-o", "/dev/null", t.folderUrl]);
    }
    return await measure(targets, source, work, opts);
  } finally {
    for (const t of targets) await t.stop();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The Markdown table of a run: rates and times, Cubby's ratios to rclone, and the Deno floor's
 * (what a durable write costs in Deno before any of Cubby's work).
 */
export function manyTable(results: ManyResult[], opts: ManyOptions): string {
  const [cubby, rclone, floor] = results;
  const f0 = (n: number) => n.toFixed(0);
  const f2 = (n: number) => n.toFixed(2);
  const rows: string[] = [];
  for (let b = 0; b < opts.batches; b++) {
    const range = `${(b * opts.files).toLocaleString("en")}–${
      ((b + 1) * opts.files).toLocaleString("en")
    }`;
    const [c, r, d] = [cubby.batches[b], rclone.batches[b], floor.batches[b]];
    rows.push(
      `| PUT files/s, folder holding ${range} files | ${f0(c)} | ${f0(r)} | ${f0(d)} | ` +
        `**${f2(c / r)}** | ${f2(d / r)} | ${f2(c / d)} | ${f2(c / cubby.batches[0])} | ` +
        `${f2(r / rclone.batches[0])} |`,
    );
  }
  const listed = LISTED_FOLDERS.toLocaleString("en");
  const range = `${(opts.batches * opts.files).toLocaleString("en")}–${
    ((opts.batches + 1) * opts.files).toLocaleString("en")
  }`;
  rows.push(
    `| PUT files/s after a PROPFIND of each of ${listed} other folders (holding ${range}) | ` +
      `${f0(cubby.afterListing)} | ${f0(rclone.afterListing)} | — | ` +
      `**${f2(cubby.afterListing / rclone.afterListing)}** | | | ` +
      `${f2(cubby.afterListing / cubby.batches[0])} | ` +
      `${f2(rclone.afterListing / rclone.batches[0])} |`,
    `| … server CPU ms per PUT | ${f2(cubby.afterListingCpu)} | ${f2(rclone.afterListingCpu)} | ` +
      `— | ${f2(cubby.afterListingCpu / rclone.afterListingCpu)} | | | | |`,
  );
  const all = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [cc, rc, dc] = [all(cubby.cpuPerFile), all(rclone.cpuPerFile), all(floor.cpuPerFile)];
  rows.push(
    `| Server CPU ms per PUT (all batches) | ${f2(cc)} | ${f2(rc)} | ${f2(dc)} | ` +
      `${f2(cc / rc)} | ${f2(dc / rc)} | ${f2(cc / dc)} | | |`,
  );
  const entries = ((opts.batches + 1) * opts.files).toLocaleString("en");
  for (const kind of ["cold", "warm"] as const) {
    const what = kind === "cold" ? "right after a write to the folder" : "again";
    const [mc, mr] = [median(cubby[kind].map((x) => x.ms)), median(rclone[kind].map((x) => x.ms))];
    const [pc, pr] = [
      median(cubby[kind].map((x) => x.cpuMs)),
      median(rclone[kind].map((x) => x.cpuMs)),
    ];
    rows.push(
      `| PROPFIND Depth 1 of ${entries} entries ${what}, ms (median of ${opts.propfinds}) | ` +
        `${f0(mc)} | ${f0(mr)} | — | **${f2(mc / mr)}** | | | | |`,
      `| … server CPU ms | ${f0(pc)} | ${f0(pr)} | — | ${f2(pc / pr)} | | | | |`,
    );
  }
  return [
    `| Case | Cubby | rclone | Deno floor | Cubby / rclone | floor / rclone | Cubby / floor | ` +
    `Cubby / its first batch | rclone / its first batch |`,
    "| ---- | ----: | -----: | ---------: | -------------: | -------------: | ------------: | " +
    "----------------------: | -----------------------: |",
    ...rows,
  ].join("\n");
}
