/**
 * `deno task backup` and `deno task restore` (scripts/backup.ts, scripts/restore.ts) against a
 * real data directory. Deno KV's SQLite file can be shared between processes, so the commands
 * also work while the server runs; the restore journal keeps restores exclusive.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findRepoRoot, loginAdmin, startServer, TEST_ADMIN } from "./helpers/server.ts";
import { serverTest } from "./helpers/server_api.ts";
import { backupChecksum } from "../server/backup/backup_format.ts";

const root = findRepoRoot();

async function cli(script: string, args: string[], dataDir: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(root, "scripts", script), "--", ...args],
    cwd: root,
    env: { DATA_DIR: dataDir, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text };
}

serverTest("backup and restore from the command line", async () => {
  const source = await Deno.makeTempDir({ prefix: "cubby-cli-a-" });
  const target = await Deno.makeTempDir({ prefix: "cubby-cli-b-" });
  const file = join(source, "backup.json");
  const server = await startServer({}, { dataDir: source });
  try {
    const token = await loginAdmin(server);
    const res = await fetch(`${server.url}/api/paste`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "made before the backup", slug: "cli-paste" }),
    });
    assert.equal(res.status, 201);
    await res.body?.cancel();

    const made = await cli("backup.ts", ["--out", file, "--modules", "text_management"], source);
    assert.equal(made.code, 0, made.text);
    assert.match(made.text, /modules:\s+text_management\n/);
    const meta = JSON.parse(await Deno.readTextFile(file)).metadata;
    assert.deepEqual([meta.type, meta.counts.text_management], ["partial", 1]);

    // A restore from the command line while the server runs: the server serves the result.
    const copy = JSON.parse(await Deno.readTextFile(file));
    copy.data.text_management[0].slug = "cli-copy";
    copy.data.text_management[0].id = copy.data.text_management[0].id.replace(/.$/, "Z");
    copy.metadata.checksum = await backupChecksum(copy.data);
    await Deno.writeTextFile(join(source, "copy.json"), JSON.stringify(copy));
    const live = await cli("restore.ts", [join(source, "copy.json"), "--mode", "merge"], source);
    assert.equal(live.code, 0, live.text);
    assert.equal(
      await (await fetch(`${server.url}/api/raw/cli-copy`)).text(),
      "made before the backup",
    );
  } finally {
    await server.stop();
  }
  try {
    const dry = await cli("restore.ts", [file, "--dry-run"], target);
    assert.equal(dry.code, 0, dry.text);
    assert.doesNotMatch(dry.text, /Restoring/);
    const bad = await cli("restore.ts", [file, "--mode", "sideways"], target);
    assert.equal(bad.code, 2, bad.text);
    const done = await cli("restore.ts", [file, "--mode", "merge"], target);
    assert.equal(done.code, 0, done.text);
    assert.match(done.text, /text_management: 1 restored, 0 skipped, 0 removed/);

    await using restored = await startServer({}, { dataDir: target });
    const raw = await fetch(`${restored.url}/api/raw/cli-paste`);
    assert.equal(await raw.text(), "made before the backup");
    await loginAdmin(restored, TEST_ADMIN);
  } finally {
    await Deno.remove(source, { recursive: true });
    await Deno.remove(target, { recursive: true });
  }
});
