/**
 * The bundled server that `deno task start` runs (scripts/bundle_server.ts): the task runs it,
 * it holds React's production builds only, and a source newer than the bundle makes it stale.
 * The test servers run it too (scripts/test.ts), so the API, schemathesis and browser suites
 * cover it; tests/memory_test.ts bounds its memory.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { BUNDLE_ENTRY, bundleServer, isBundleUpToDate } from "../scripts/bundle_server.ts";
import { bundledServer } from "./helpers/bundle.ts";
import { tempDir } from "./helpers/temp.ts";
import { startServer } from "./helpers/server.ts";
import { findServerPid, MiB } from "./shell/helpers.ts";
import { settledRss } from "./helpers/first_use.ts";

const root = resolve(import.meta.dirname!, "..");

Deno.test("deno task start bundles the server when needed, then runs the bundle", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  const start: string = config.tasks.start;
  const steps = start.split("&&").map((s) => s.trim());
  assert.equal(steps.at(-2), "deno run -A scripts/bundle_server.ts --if-needed");
  assert.match(
    steps.at(-1)!,
    /deno run -A --unstable-kv --unstable-cron dist-server\/main_bundle\.js$/,
  );
});

Deno.test("the bundle holds React's production builds and no development build", async () => {
  await using dir = await tempDir("cubby-bundle-contents-");
  const entry = await bundledServer(dir.path);
  const bundleDir = resolve(entry, "..");
  let production = false;
  for await (const e of Deno.readDir(bundleDir)) {
    if (!e.isFile || !e.name.endsWith(".js")) continue;
    const text = await Deno.readTextFile(join(bundleDir, e.name));
    assert.doesNotMatch(text, /react-dom[\w.-]*\.development\.js/, `${e.name} holds a dev build`);
    production ||= /react-dom-server[\w.-]*\.production\.js/.test(text);
  }
  assert.ok(production, "react-dom/server's production build is in the bundle");
});

Deno.test("a source newer than the bundle's entry makes it stale", async () => {
  await using dir = await tempDir("cubby-bundle-stale-");
  const entry = join(dir.path, BUNDLE_ENTRY);
  await Deno.writeTextFile(entry, "");
  const newest = new Date(Date.now() + 60_000);
  await Deno.utime(entry, newest, newest);
  assert.equal(await isBundleUpToDate(dir.path), true);
  const old = new Date(Date.now() - 3600_000 * 24 * 365 * 30);
  await Deno.utime(entry, old, old);
  assert.equal(await isBundleUpToDate(dir.path), false);
  assert.equal(await isBundleUpToDate(join(dir.path, "missing")), false);
});

Deno.test({
  name: "an up-to-date bundle new to DENO_DIR is analysed before the server starts, not inside it",
  sanitizeResources: false, // the server subprocess's pipes are closed by stop()
  sanitizeOps: false,
  async fn() {
    // Analysed inside the server, the bundle left it at about 137 MiB at rest; analysed by
    // `deno cache` first, about 75 (bench/README.md, "Memory after first use").
    await using dir = await tempDir("cubby-bundle-cache-");
    await using denoDir = await tempDir("cubby-deno-dir-");
    const entry = await bundledServer(dir.path);
    const outDir = resolve(entry, "..");
    const env = { DENO_DIR: denoDir.path, NO_COLOR: "1" };
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/bundle_server.ts", "--if-needed", "--outdir", outDir],
      cwd: root,
      env,
    }).output();
    const said = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(out.success, said);
    assert.match(said, /server bundle up to date/);
    await using server = await startServer(env, { entry });
    const atRest = await settledRss(await findServerPid(server.dataDir));
    assert.ok(atRest < 110 * MiB, `RSS at rest ${(atRest / MiB).toFixed(1)} MiB`);
  },
});

Deno.test("a new bundle keeps recent files of older builds and removes day-old ones", async () => {
  // A server started from the older entry may still import its chunks; a day later, none does.
  await using dir = await tempDir("cubby-bundle-prune-");
  const old = new Date(Date.now() - 2 * 24 * 3600_000);
  await Deno.writeTextFile(join(dir.path, "chunk-RECENT00.js"), "");
  await Deno.writeTextFile(join(dir.path, "chunk-OLDOLD00.js"), "");
  await Deno.utime(join(dir.path, "chunk-OLDOLD00.js"), old, old);
  await Deno.mkdir(join(dir.path, ".staging-stopped"));
  await Deno.utime(join(dir.path, ".staging-stopped"), old, old);
  const entry = await bundleServer(dir.path);
  const names = new Set<string>();
  for await (const e of Deno.readDir(dir.path)) names.add(e.name);
  assert.ok(names.has(BUNDLE_ENTRY), entry);
  assert.ok(names.has("chunk-RECENT00.js"));
  assert.ok(!names.has("chunk-OLDOLD00.js"));
  assert.ok(!names.has(".staging-stopped"));
  assert.ok(![...names].some((n) => n.startsWith(".staging-")), [...names].join(" "));
});
