/** Finding the engines: the cache layout .ci/run builds into, overrides, and a clear failure. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { enginePath, enginesCacheDir, engineVersions, requireEngine } from "./helpers/engines.ts";

/** Runs `fn` with some environment variables set (or removed, for undefined), then restores them. */
function withEnv(vars: Record<string, string | undefined>, fn: () => void) {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) Deno.env.delete(k);
      else Deno.env.set(k, value);
    }
  };
  apply(vars);
  try {
    fn();
  } finally {
    apply(saved);
  }
}

Deno.test("engines are looked up in the versioned cache directories .ci/run fills", () => {
  const v = engineVersions();
  assert.match(v.DENOKV_VERSION, /^\d+\.\d+\.\d+$/);
  assert.match(v.SEAWEEDFS_VERSION, /^v\d+\.\d+\.\d+/);
  withEnv(
    { CUBBY_ENGINES_DIR: "/cache", CUBBY_DENOKV_BIN: undefined, CUBBY_WEED_BIN: undefined },
    () => {
      assert.equal(enginesCacheDir(), "/cache");
      assert.equal(
        enginePath("denokv"),
        join("/cache", `denokv-${v.DENOKV_VERSION}`, "bin", "denokv"),
      );
      assert.equal(enginePath("weed"), join("/cache", `seaweedfs-${v.SEAWEEDFS_VERSION}`, "weed"));
    },
  );
  withEnv({ CUBBY_WEED_BIN: "/opt/weed", CUBBY_NGINX_BIN: "/opt/nginx" }, () => {
    assert.equal(enginePath("weed"), "/opt/weed");
    assert.equal(enginePath("nginx"), "/opt/nginx");
  });
});

Deno.test("a missing engine fails with where it was looked for and how to install it", () => {
  withEnv({ CUBBY_WEED_BIN: "/nonexistent/weed" }, () => {
    assert.throws(() => requireEngine("weed"), (err: Error) => {
      assert.match(err.message, /\/nonexistent\/weed/);
      assert.match(err.message, /\.ci\/run/);
      assert.match(err.message, /CUBBY_WEED_BIN/);
      return true;
    });
  });
  withEnv({ CUBBY_NGINX_BIN: "/nonexistent/nginx" }, () => {
    assert.throws(() => requireEngine("nginx"), /apt-get install -y nginx/);
  });
});
