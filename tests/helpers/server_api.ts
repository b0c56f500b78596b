/**
 * Helpers for tests that drive a real server (tests/helpers/server.ts) over HTTP, often with an
 * external client such as litmus or rclone.
 */
import assert from "node:assert/strict";
import { basename } from "node:path";
import { loginAdmin, startServer, type TestServer } from "./server.ts";
import { tempDir } from "./temp.ts";

/** True when the program a test drives is installed at `path` (for example /usr/bin/litmus). */
export function hasProgram(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Creates an active local mount at `path` on a running server, through the admin API. */
export async function createServerMount(
  server: TestServer,
  path: string,
  policy: "native_proxy" | "302_redirect" = "native_proxy",
): Promise<void> {
  const headers = {
    authorization: `Bearer ${await loginAdmin(server)}`,
    "content-type": "application/json",
  };
  const cfgs = await (await fetch(`${server.url}/api/s3-configs`, { headers })).json();
  const local = cfgs.data.find((c: { provider_type: string }) => c.provider_type === "local");
  const res = await fetch(`${server.url}/api/mount/create`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: path.slice(1),
      mount_path: path,
      storage_type: "local",
      storage_config_id: local.id,
      webdav_policy: policy,
    }),
  });
  assert.equal(res.status, 201, await res.text());
}

/**
 * A test that runs the real server as a subprocess: its pipes are closed by `stop()`, after the
 * resource and op sanitizers would look, so those are off.
 */
export function serverTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, sanitizeResources: false, sanitizeOps: false, fn });
}

/**
 * A test of the external WebDAV client at `program` (ignored where it is not installed): `fn`
 * gets a real server with a local mount at `mountPath` and a scratch directory, both removed
 * after. The server is a child process, which the resource and op sanitizers would flag.
 */
export function davClientTest(
  name: string,
  program: string,
  mountPath: string,
  fn: (server: TestServer, scratch: string) => Promise<void>,
): void {
  Deno.test({
    name,
    ignore: !hasProgram(program),
    // As in serverTest: the server subprocess's pipes are closed by stop().
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      await using server = await startServer();
      await using scratch = await tempDir(`cubby-${basename(program)}-`);
      await createServerMount(server, mountPath);
      await fn(server, scratch.path);
    },
  });
}
