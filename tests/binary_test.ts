/**
 * The single binary (`deno task compile`, scripts/compile.ts). deno compile builds it with
 * DENORT_BIN set to this deno (the runtime it would download cannot be fetched here, so the
 * output does not run), and the embedded files must stay within 25 MB. The bundle it embeds is
 * what `deno bundle --platform deno --minify` makes of main_binary.ts, so that bundle is run
 * with dist/ beside it, as in the binary: API, app shell, a rendered paste (React, Markdown,
 * highlight.js, DOMPurify on the lite DOM) and an S3 storage test (the AWS SDK), all from the bundle.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { compile, EMBEDDED_LIMIT_MB } from "../scripts/compile.ts";
import { freePort, startEngine } from "./helpers/engine_process.ts";
import { startS3rver } from "./helpers/s3rver.ts";
import { s3rverConfigFields } from "./helpers/s3rver_config.ts";
import { tempDir } from "./helpers/temp.ts";

const root = resolve(import.meta.dirname!, "..");
const ADMIN = { username: "admin", password: "binary-test-admin-pw" };

/** dist/ of this checkout (what the binary embeds), built when missing. */
async function ensureDist(): Promise<string> {
  const dist = join(root, "dist");
  if (existsSync(join(dist, "manifest.json"))) return dist;
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/build.ts"],
    cwd: root,
    env: { CUBBY_DIST_DIR: dist },
  }).output();
  assert.ok(built.success, new TextDecoder().decode(built.stderr));
  return dist;
}

async function copyWithoutMaps(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyWithoutMaps(join(from, e.name), join(to, e.name));
    else if (!e.name.endsWith(".map")) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

Deno.test("deno compile embeds at most 25 MB: the server bundle and dist/ without maps", async () => {
  await ensureDist();
  await using out = await tempDir("cubby-compile-");
  const result = await compile({
    output: join(out.path, "cubby"),
    check: false,
    env: { DENORT_BIN: Deno.execPath() },
  });
  assert.ok(result.success, result.output);
  const mb = result.embeddedMb;
  assert.ok(mb !== null, `no "Files:" line in:\n${result.output}`);
  assert.ok(
    mb <= EMBEDDED_LIMIT_MB,
    `${mb} MB embedded (limit ${EMBEDDED_LIMIT_MB}):\n${result.output}`,
  );
  assert.match(result.output, /\.deno_compile_bundle_\w+\.mjs/);
  assert.match(result.output, /manifest\.json/);
  assert.doesNotMatch(result.output, /\.map \(/, "no source maps");
  assert.doesNotMatch(result.output, /resvg-js-linux-x64-gnu\/\*/, "no unused native addons");
  console.log(`embedded: ${mb.toFixed(1)} MB`);
});

Deno.test({
  name: "the binary's bundle serves the API, the app, a rendered paste and S3 storage",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dist = await ensureDist();
    await using dir = await tempDir("cubby-bundle-");
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--platform",
        "deno",
        "--minify",
        "-o",
        join(dir.path, "cubby.mjs"),
        "main_binary.ts",
      ],
      cwd: root,
      env: { NO_COLOR: "1" },
    }).output();
    assert.ok(bundled.success, new TextDecoder().decode(bundled.stderr));
    await copyWithoutMaps(dist, join(dir.path, "dist"));
    await using s3 = await startS3rver();

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await startEngine({
      name: "bundled Cubby",
      bin: Deno.execPath(),
      args: ["run", "-A", "--unstable-kv", "--unstable-cron", "cubby.mjs"],
      cwd: dir.path, // outside the repository: no deno.json, no node_modules
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: join(dir.path, "data"),
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        CUBBY_DIST_DIR: "", // the binary's own dist/, beside the bundle
        NODE_ENV: "",
        KV_URL: "",
        NO_COLOR: "1",
      },
      ready: async () => (await fetch(`${url}/api/version`).then((r) => r.json())).success,
    });
    try {
      const version = (await (await fetch(`${url}/api/version`)).json()).data.version;
      const config = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
      assert.equal(version, config.version);

      const shell = await (await fetch(`${url}/`)).text();
      const script = shell.match(/src="(\/assets\/main-[\w-]+\.js)"/)?.[1];
      assert.ok(script, shell.slice(0, 2000));
      const js = await fetch(`${url}${script}`);
      assert.equal(js.status, 200);
      await js.body?.cancel();

      const login = await (await fetch(`${url}/api/admin/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
      })).json();
      const auth = { authorization: `Bearer ${login.data.token}` };
      const json = { ...auth, "content-type": "application/json" };

      const content = "# hello\n\n**bold** and `code`\n\n<img src=x onerror=alert(1)>\n\n" +
        "```js\nconst a = 1;\n```\n";
      const paste = await (await fetch(`${url}/api/paste`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ content }),
      })).json();
      assert.equal(paste.success, true, JSON.stringify(paste));
      const page = await (await fetch(`${url}${paste.data.url}`)).text();
      assert.match(page, /<div id="root" data-ssr="1">/);
      assert.match(page, /<h1>hello<\/h1>/);
      assert.match(page, /<strong>bold<\/strong>/);
      assert.match(page, /hljs-keyword/);
      assert.doesNotMatch(page, /<img[^>]*onerror/, "the sanitiser ran");

      const created = await (await fetch(`${url}/api/s3-configs`, {
        method: "POST",
        headers: json,
        body: JSON.stringify(s3rverConfigFields(s3)),
      })).json();
      assert.equal(created.success, true, JSON.stringify(created));
      const tested = await (await fetch(`${url}/api/s3-configs/${created.data.id}/test`, {
        method: "POST",
        headers: auth,
      })).json();
      const steps = tested.data.steps.filter((s: { step: string }) => s.step !== "cors");
      assert.deepEqual(
        steps.map((s: { step: string; ok: boolean }) => [s.step, s.ok]),
        [["connect", true], ["write", true], ["read", true], ["list", true], ["delete", true]],
        JSON.stringify(tested),
      );
      assert.doesNotMatch(server.output(), /error/i, server.output());
    } finally {
      await server.stop();
    }
  },
});
