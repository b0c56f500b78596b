/**
 * WebDAV with an independent client: Debian's `rclone` (webdav remote, vendor "other") syncs a
 * tree of 100 files (nested folders, binary files, UTF-8 names) to `/dav/<mount>/` on the real
 * server and back into a fresh directory; the copies are byte-identical and `rclone check`
 * (with --download, comparing contents) passes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { TEST_ADMIN } from "./helpers/server.ts";
import { davClientTest } from "./helpers/server_api.ts";

const RCLONE_TIMEOUT_MS = 2 * 60_000;

async function rclone(args: string[], env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command("rclone", {
    args,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(RCLONE_TIMEOUT_MS),
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.ok(out.success, `rclone ${args.join(" ")} failed:\n${text}`);
  return new TextDecoder().decode(out.stdout).trim();
}

/** Writes 100 files: text and binary, three levels of folders, a few UTF-8 names. */
async function makeTree(root: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const dir = join(root, `d${i % 4}`, i % 3 === 0 ? `sub${i % 2}` : "", i % 5 === 0 ? "深" : "");
    await Deno.mkdir(dir, { recursive: true });
    const name = i % 10 === 0 ? `文件 ${i} é.txt` : i % 2 ? `bin-${i}.dat` : `text-${i}.txt`;
    const bytes = i % 2
      ? crypto.getRandomValues(new Uint8Array(1 + (i * 997) % 60_000))
      : new TextEncoder().encode(`file ${i}\n`.repeat(i + 1));
    await Deno.writeFile(join(dir, name), bytes);
  }
}

async function hashes(root: string, dir = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(join(root, dir))) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) {
      for (const [k, v] of await hashes(root, rel)) out.set(k, v);
    } else {
      const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(join(root, rel)));
      out.set(
        rel,
        Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(""),
      );
    }
  }
  return out;
}

davClientTest(
  "rclone syncs 100 files to /dav and back, byte-identical, and rclone check passes",
  "/usr/bin/rclone",
  "/sync",
  async (server, work) => {
    const src = join(work, "src");
    const back = join(work, "back");
    await makeTree(src);
    const config = join(work, "rclone.conf");
    await Deno.writeTextFile(config, "");
    const base: Record<string, string> = { RCLONE_CONFIG: config, HOME: work };
    const env = {
      ...base,
      RCLONE_CONFIG_CUBBY_TYPE: "webdav",
      RCLONE_CONFIG_CUBBY_URL: `${server.url}/dav/`,
      RCLONE_CONFIG_CUBBY_VENDOR: "other",
      RCLONE_CONFIG_CUBBY_USER: TEST_ADMIN.username,
      RCLONE_CONFIG_CUBBY_PASS: await rclone(["obscure", TEST_ADMIN.password], base),
    };
    await rclone(["sync", src, "cubby:sync/tree", "--transfers", "4"], env);
    await rclone(["sync", "cubby:sync/tree", back, "--transfers", "4"], env);
    const [a, b] = [await hashes(src), await hashes(back)];
    assert.equal(a.size, 100);
    assert.deepEqual(b, a);
    await rclone(["check", src, "cubby:sync/tree", "--download"], env);
    const listed = await rclone(["lsf", "-R", "--files-only", "cubby:sync/tree"], env);
    assert.equal(listed.split("\n").length, 100);
  },
);
