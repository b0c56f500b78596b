/**
 * The command-line client as users run it: built into one script, served by a real server at
 * /cli.ts and run with `deno run <url>` and narrow permissions. It round-trips files (several
 * MiB, from a path and from standard input, with and without a password) and texts, refuses a
 * wrong key, leaves no file behind when the stored ciphertext was damaged, and decrypts the
 * committed test vectors (refusing the invalid ones).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildCli } from "../scripts/build_cli.ts";
import { loginAdmin, startServer } from "../tests/helpers/server.ts";
import { fromBase64Url, fromHex } from "../shared/e2e/bytes.ts";

const dist = await Deno.makeTempDir({ prefix: "cubby-cli-dist-" });
const work = await Deno.makeTempDir({ prefix: "cubby-cli-work-" });
const denoDir = await Deno.makeTempDir({ prefix: "cubby-cli-deno-" });
await buildCli(join(dist, "cli.ts"));
globalThis.addEventListener("unload", () => {
  for (const d of [dist, work, denoDir]) Deno.removeSync(d, { recursive: true });
});

/** Runs the client at `script` with these permissions and arguments. */
async function run(
  script: string,
  perms: string[],
  args: string[],
  { stdin, env = {} }: { stdin?: Uint8Array; env?: Record<string, string> } = {},
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...perms, script, ...args],
    cwd: work,
    env: { DENO_DIR: denoDir, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin) {
    const w = child.stdin.getWriter();
    await w.write(stdin);
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: out.stdout, stderr: new TextDecoder().decode(out.stderr) };
}

async function withServer(fn: (s: { url: string; dataDir: string; key: string }) => Promise<void>) {
  await using server = await startServer({ CUBBY_DIST_DIR: dist });
  const token = await loginAdmin(server);
  const res = await fetch(`${server.url}/api/admin/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "cli", permissions: { text: true, file: true } }),
  });
  const key = (await res.json()).data.key;
  await fn({ url: server.url, dataDir: server.dataDir, key });
}

Deno.test("the served client round-trips files and texts, and refuses a wrong key", async () => {
  await withServer(async ({ url, key }) => {
    const cli = `${url}/cli.ts`;
    const host = new URL(url).host;
    const sendPerms = [`--allow-net=${host}`, `--allow-read=${work}`, "--allow-env"];
    const getPerms = [`--allow-net=${host}`, `--allow-write=${work}`, "--allow-env"];
    const bytes = crypto.getRandomValues(new Uint8Array(65536)).map((b, i) => b ^ i);
    const big = new Uint8Array(3 * 1024 * 1024 + 17);
    for (let at = 0; at < big.length; at += bytes.length) {
      big.set(bytes.subarray(0, big.length - at), at);
    }
    await Deno.mkdir(join(work, "src"), { recursive: true });
    await Deno.writeFile(join(work, "src", "big.bin"), big);

    const sent = await run(cli, sendPerms, ["send", join(work, "src", "big.bin"), "--key", key]);
    assert.equal(sent.code, 0, sent.stderr);
    const link = new TextDecoder().decode(sent.stdout).trim();
    assert.match(link, /^http:\/\/[^/]+\/file\/[A-Za-z0-9]+#[A-Za-z0-9_-]{43}$/);
    const got = await run(cli, getPerms, ["get", link]);
    assert.equal(got.code, 0, got.stderr);
    assert.deepEqual(await Deno.readFile(join(work, "big.bin")), big, "saved under its own name");
    const exists = await run(cli, getPerms, ["get", link]);
    assert.equal(exists.code, 1);
    assert.match(exists.stderr, /exists \(use --force\)/);
    const again = await run(cli, getPerms, ["get", link, "-o", join(work, "copy.bin")]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(await Deno.readFile(join(work, "copy.bin")), big);

    const env = { CUBBY_API_KEY: key, CUBBY_PASSWORD: "a password" };
    const piped = await run(cli, sendPerms, ["send", "-", "--name", "piped.bin", "--password"], {
      stdin: big.subarray(0, 1_000_000),
      env,
    });
    assert.equal(piped.code, 0, piped.stderr);
    const pipedLink = new TextDecoder().decode(piped.stdout).trim();
    const noPassword = await run(cli, getPerms, ["get", pipedLink, "-o", "-"]);
    assert.equal(noPassword.code, 1);
    assert.match(noPassword.stderr, /CUBBY_PASSWORD/);
    const opened = await run(cli, getPerms, ["get", pipedLink, "-o", "-"], { env });
    assert.equal(opened.code, 0, opened.stderr);
    assert.deepEqual(opened.stdout, big.subarray(0, 1_000_000));

    const text = "Secret text ✓\nsecond line";
    const asText = await run(cli, sendPerms, ["send", "--text", "--key", key], {
      stdin: new TextEncoder().encode(text),
    });
    assert.equal(asText.code, 0, asText.stderr);
    const textLink = new TextDecoder().decode(asText.stdout).trim();
    assert.match(textLink, /\/paste\//);
    const read = await run(cli, getPerms, ["get", textLink]);
    assert.equal(new TextDecoder().decode(read.stdout), text);

    const wrongKey = link.replace(/#.*/, `#${"A".repeat(42)}E`);
    const wrong = await run(cli, getPerms, ["get", wrongKey, "-o", join(work, "wrong.bin")]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /wrong key/);
    await assert.rejects(Deno.stat(join(work, "wrong.bin")));
    const keyless = await run(cli, getPerms, ["get", link.replace(/#.*/, "")]);
    assert.match(keyless.stderr, /no key/);
  });
});

Deno.test("a damaged stored file is refused and leaves no file behind", async () => {
  await withServer(async ({ url, dataDir, key }) => {
    const cli = `${url}/cli.ts`;
    const perms = ["--allow-net", `--allow-read=${work}`, `--allow-write=${work}`];
    await Deno.writeFile(join(work, "plain.txt"), new TextEncoder().encode("x".repeat(300_000)));
    const sent = await run(cli, perms, ["send", join(work, "plain.txt"), "--key", key]);
    const link = new TextDecoder().decode(sent.stdout).trim();
    const token = await loginAdmin({ url });
    const list = await (await fetch(`${url}/api/files`, {
      headers: { authorization: `Bearer ${token}` },
    })).json();
    const path = join(dataDir, "storage", list.data.items[0].storage_path);
    const stored = await Deno.readFile(path);
    stored[stored.length - 100] ^= 1; // inside the last record
    await Deno.writeFile(path, stored);
    const got = await run(cli, perms, ["get", link, "-o", join(work, "damaged.txt")]);
    assert.equal(got.code, 1);
    assert.match(got.stderr, /altered or is damaged/);
    await assert.rejects(Deno.stat(join(work, "damaged.txt")), Deno.errors.NotFound);
  });
});

Deno.test("the client decrypts the test vectors and refuses the invalid ones", async () => {
  const vectors = JSON.parse(
    await Deno.readTextFile(new URL("../tests/fixtures/e2e_vectors.json", import.meta.url)),
  );
  const script = join(dist, "cli.ts");
  for (const v of vectors.streams.filter((v: { ciphertext?: string }) => v.ciphertext)) {
    const args = ["decrypt", v.key, ...(v.password ? ["--password"] : [])];
    const out = await run(script, ["--allow-env"], args, {
      stdin: fromBase64Url(v.ciphertext)!,
      env: v.password ? { CUBBY_PASSWORD: v.password } : {},
    });
    assert.equal(out.code, 0, `${v.name}: ${out.stderr}`);
    assert.deepEqual(out.stdout, fromHex(v.plaintext_hex), v.name);
  }
  for (const v of vectors.invalid) {
    const out = await run(script, ["--allow-env"], ["decrypt", v.key, "--password"], {
      stdin: fromBase64Url(v.ciphertext)!,
      env: { CUBBY_PASSWORD: v.password },
    });
    assert.equal(out.code, 1, v.name);
    assert.match(out.stderr, v.error === "version" ? /newer encryption format/ : /altered/, v.name);
  }
});
