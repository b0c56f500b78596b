/**
 * Where the tests find the external engines they run against: denokv (the KV Connect server),
 * SeaweedFS (`weed`, a real S3 with SigV4) and nginx. `.ci/run` builds the first two once into
 * the engines cache at the versions in `.ci/engines.env`; nginx comes from Debian. Each path can
 * be overridden with an environment variable. A missing engine throws a message that says how
 * to install it: a test that needs one fails, it is never skipped.
 *
 * Only `node:` built-ins and no `import.meta`, so that Playwright's setup can import it too.
 */
import { accessSync, constants, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { findRepoRoot } from "./server.ts";

/** The engines `.ci/run` installs, by name. */
export type EngineName = "denokv" | "weed" | "nginx";

/** `KEY=VALUE` lines of `.ci/engines.env` (comments and blank lines ignored). */
export function engineVersions(root = findRepoRoot()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(join(root, ".ci", "engines.env"), "utf8").split("\n")) {
    const m = line.match(/^([A-Z_]+)=(\S+)\s*$/);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/** The engines cache: CUBBY_ENGINES_DIR, else `$XDG_CACHE_HOME/cubby-engines` (~/.cache). */
export function enginesCacheDir(): string {
  if (process.env.CUBBY_ENGINES_DIR) return process.env.CUBBY_ENGINES_DIR;
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "cubby-engines");
}

/** The path each engine is expected at, whether or not it is there. */
export function enginePath(name: EngineName): string {
  const v = name === "nginx" ? {} : engineVersions();
  switch (name) {
    case "denokv":
      return process.env.CUBBY_DENOKV_BIN ||
        join(enginesCacheDir(), `denokv-${v.DENOKV_VERSION}`, "bin", "denokv");
    case "weed":
      return process.env.CUBBY_WEED_BIN ||
        join(enginesCacheDir(), `seaweedfs-${v.SEAWEEDFS_VERSION}`, "weed");
    case "nginx":
      return process.env.CUBBY_NGINX_BIN || "/usr/sbin/nginx";
  }
}

const OVERRIDE: Record<EngineName, string> = {
  denokv: "CUBBY_DENOKV_BIN",
  weed: "CUBBY_WEED_BIN",
  nginx: "CUBBY_NGINX_BIN",
};

const HOW_TO_INSTALL: Record<EngineName, string> = {
  denokv: "`bash .ci/run` builds it (cargo install denokv) into the engines cache",
  weed: "`bash .ci/run` builds SeaweedFS's weed from the Go module proxy into the engines cache",
  nginx: "install Debian's nginx: apt-get install -y nginx",
};

/** The engine's executable; throws a message naming the path, the fix and the override. */
export function requireEngine(name: EngineName): string {
  const path = enginePath(name);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `${name} is needed by this test but was not found at ${path}. ${HOW_TO_INSTALL[name]}, ` +
        `or set ${OVERRIDE[name]} to an executable.`,
    );
  }
  return path;
}
