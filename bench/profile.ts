/**
 * Profiles one case of bench/http.ts: the real server (main.ts, a temporary data dir) runs under
 * `deno run --cpu-prof` pinned to core 0 while wrk loads the case from core 1, then stops; the
 * profile of the load (its last SECONDS) is summarised by bench/cpu_profile.ts.
 *
 *   deno run -A bench/profile.ts --case=share [--seconds=10] [--top=30] [--keep=DIR]
 */
import { join } from "node:path";
import { TEST_ADMIN } from "../tests/helpers/server.ts";
import { CASE_KEYS, prepareCases, probe } from "./http_cases.ts";
import { runWrk } from "./wrk.ts";
import { startPinned } from "./processes.ts";
import { type CpuProfile, formatSummary, summarise } from "./cpu_profile.ts";
import { benchArgs } from "./args.ts";

const opts = benchArgs({
  numbers: { seconds: 10, top: 30, connections: 32 },
  strings: { case: "share" },
  optional: ["keep"],
});
if (!(CASE_KEYS as readonly string[]).includes(opts.case)) {
  throw new Error(`unknown case "${opts.case}"; cases: ${CASE_KEYS.join(", ")}`);
}
const SECONDS = opts.seconds;
const ROOT = join(import.meta.dirname!, "..");

const dataDir = await Deno.makeTempDir({ prefix: "cubby-profile-" });
const profDir = opts.keep ?? await Deno.makeTempDir({ prefix: "cubby-cpuprof-" });
try {
  const server = await startPinned("main.ts", "0", ROOT, {
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_USERNAME: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    SWEEP_INTERVAL_MS: "0",
  }, ["--cpu-prof", `--cpu-prof-dir=${profDir}`]);
  let result;
  try {
    const c = (await prepareCases(server.url)).find((c) => c.key === opts.case)!;
    await probe(c);
    await runWrk(c, 1, { core: "1", connections: opts.connections }); // warm-up
    result = await runWrk(c, SECONDS, { core: "1", connections: opts.connections });
  } finally {
    await server.stop(); // SIGTERM: main.ts exits, which writes the profile
  }
  const [file] = [...Deno.readDirSync(profDir)].filter((e) => e.name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile in ${profDir}`);
  const path = join(profDir, file.name);
  const profile = JSON.parse(await Deno.readTextFile(path)) as CpuProfile;
  console.log(
    `${opts.case}: ${Math.round(result.rps)} req/s under --cpu-prof (${result.non2xx} non-2xx)` +
      (opts.keep ? `; profile kept at ${path}` : ""),
  );
  // The load's window: the last SECONDS before the server stopped (plus its shutdown).
  const summary = summarise(profile, (SECONDS + 0.3) * 1e6);
  console.log(formatSummary(summary, opts.top, result.requests));
} finally {
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  if (!opts.keep) await Deno.remove(profDir, { recursive: true }).catch(() => {});
}
