/**
 * Test helpers: an app on a real, temporary KV file and data directory. No mocks: the same
 * services main.ts wires, with a low KDF cost so tests stay fast.
 */
import { join } from "node:path";
import { type Config, loadConfig } from "../../server/config.ts";
import { createServices, type Services } from "../../server/container.ts";
import { createApp } from "../../server/app.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";
import type { StorageConfigView } from "../../shared/schemas/storage_configs.ts";
import { ALL_PERMISSIONS, maskToPermissions } from "../../shared/permissions.ts";
import { s3rverConfigFields } from "./s3rver_config.ts";
import { withKvConnectLimits } from "./kv_limits.ts";

export const ADMIN = { username: "admin", password: "admin-password-123" };

/** Every permission a key can hold (a key so granted is still not the admin). */
export const ALL_KEY_PERMISSIONS = maskToPermissions(ALL_PERMISSIONS);

/** A reply as `TestApp.call` reads it: the body is whatever JSON the route sent (null if empty). */
// deno-lint-ignore no-explicit-any
export type CallResult = { status: number; body: any; text: string };

export type TestApp = {
  app: ReturnType<typeof createApp>;
  services: Services;
  /** The app's KV handle (with the KV Connect limits), for tests that look at stored keys. */
  kv: Deno.Kv;
  config: Config;
  dir: string;
  /** Calls the app like a client at 127.0.0.1 (or at `peer`, in language `lang`) would. */
  request: (
    path: string,
    init?: RequestInit & { json?: unknown; auth?: string; peer?: string; lang?: string },
  ) => Promise<Response>;
  /** Sends a request as `auth` (with a JSON body when given) and returns only its status. */
  statusOf: (method: string, path: string, auth?: string, json?: unknown) => Promise<number>;
  /** Sends a request like `statusOf` and returns its status, text and parsed JSON body (or null). */
  call: (method: string, path: string, auth?: string, json?: unknown) => Promise<CallResult>;
  /** Logs in as the admin and returns "Bearer <token>". */
  adminAuth: () => Promise<string>;
  /** Creates an API key with the given permissions and returns "ApiKey <key>" and its id. */
  createKey: (
    permissions: Record<string, boolean>,
    extra?: Record<string, unknown>,
  ) => Promise<{ auth: string; id: string; key: string }>;
  /** Creates a storage config through the admin API (asserting 201); returns its view. */
  createStorageConfig: (fields: Record<string, unknown>) => Promise<StorageConfigView>;
  /** Creates a local storage config named `name`, rooted at `<dir>/<name>`; returns its view. */
  createLocalConfig: (name: string, extra?: Record<string, unknown>) => Promise<StorageConfigView>;
  /** Creates a storage config for an s3rver bucket through the admin API; returns its view. */
  createS3rverConfig: (
    s3: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string },
    extra?: Record<string, unknown>,
  ) => Promise<StorageConfigView>;
  /** Creates a mount through the admin API (on the default local config unless given). */
  createMount: (mountPath: string, extra?: Record<string, unknown>) => Promise<MountView>;
  close: () => Promise<void>;
  /** Closes the app at the end of an `await using` scope. */
  [Symbol.asyncDispose]: () => Promise<void>;
};

/**
 * Builds an app on a fresh temporary KV and data directory, held to KV Connect's limits
 * (kv_limits.ts), so code that would break on denokv fails here too. `overrides` replace config fields
 * after the environment is read (for example short rate-limit windows); `wrapKv` may wrap the
 * real KV handle the services get (for example to count its calls); the real one is still closed.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  { wrapKv, ...overrides }: Partial<Config> & { wrapKv?: (kv: Deno.Kv) => Deno.Kv } = {},
): Promise<TestApp> {
  const dir = await Deno.makeTempDir({ prefix: "cubby-test-" });
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      SWEEP_INTERVAL_MS: "0",
      ...env,
    }),
    kdfIterations: 1_000,
    ...overrides,
  };
  const kv = await Deno.openKv(join(dir, "cubby.kv"));
  const limited = withKvConnectLimits(kv);
  return await buildTestApp(config, wrapKv?.(limited) ?? limited, dir, async () => {
    kv.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  });
}

/**
 * A second instance beside `t`: its own services, app and memory (caches, slug hints, view
 * tallies), on the same KV and data directory, as two processes on one shared KV would be. Both
 * follow each other's cached-state changes. Close it before `t`.
 */
export async function createPeerApp(t: TestApp): Promise<TestApp> {
  t.services.followOtherInstances();
  const peer = await buildTestApp(t.config, t.kv, t.dir, () => Promise.resolve());
  peer.services.followOtherInstances();
  return peer;
}

async function buildTestApp(
  config: Config,
  kv: Deno.Kv,
  dir: string,
  release: () => Promise<void>,
): Promise<TestApp> {
  const services = await createServices(config, kv, () => {});
  await services.auth.ensureAdmin();
  const app = createApp({ services, log: () => {} });
  let adminToken: string | null = null;

  const request: TestApp["request"] = (path, { peer = "127.0.0.1", lang, ...init } = {}) => {
    const headers = new Headers(init.headers);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    if (init.auth) headers.set("authorization", init.auth);
    if (lang) headers.set("accept-language", lang);
    const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
    return Promise.resolve(
      app.fetch(new Request(new URL(path, "http://127.0.0.1"), { ...init, headers, body }), {
        remoteAddr: { hostname: peer, port: 1, transport: "tcp" },
      }),
    );
  };

  const statusOf: TestApp["statusOf"] = async (method, path, auth, json) => {
    const res = await request(path, { method, auth, json });
    await res.body?.cancel();
    return res.status;
  };

  const call: TestApp["call"] = async (method, path, auth, json) => {
    const res = await request(path, { method, auth, json });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, text };
  };

  const adminAuth = async () => {
    if (adminToken) return adminToken;
    const res = await request("/api/admin/login", { method: "POST", json: ADMIN });
    const body = await res.json();
    if (!body.success) throw new Error(`admin login failed: ${JSON.stringify(body)}`);
    adminToken = `Bearer ${body.data.token}`;
    return adminToken;
  };

  const createKey: TestApp["createKey"] = async (permissions, extra = {}) => {
    const res = await request("/api/admin/api-keys", {
      method: "POST",
      auth: await adminAuth(),
      json: { name: `key-${crypto.randomUUID().slice(0, 8)}`, permissions, ...extra },
    });
    const body = await res.json();
    if (!body.success) throw new Error(`key creation failed: ${JSON.stringify(body)}`);
    return { auth: `ApiKey ${body.data.key}`, id: body.data.id, key: body.data.key };
  };

  const adminJson = async (path: string, json: unknown) => {
    const res = await request(path, { method: "POST", auth: await adminAuth(), json });
    const body = await res.json();
    if (res.status !== 201) throw new Error(`${path} failed: ${JSON.stringify(body)}`);
    return body.data;
  };

  const createStorageConfig: TestApp["createStorageConfig"] = (fields) =>
    adminJson("/api/s3-configs", fields);

  const createLocalConfig: TestApp["createLocalConfig"] = (name, extra = {}) =>
    createStorageConfig({ name, provider_type: "local", root_dir: join(dir, name), ...extra });

  const createS3rverConfig: TestApp["createS3rverConfig"] = (s3, extra = {}) =>
    createStorageConfig({ ...s3rverConfigFields(s3), ...extra });

  const createMount: TestApp["createMount"] = async (mountPath, extra = {}) => {
    const configs = await (await request("/api/s3-configs", { auth: await adminAuth() })).json();
    const local = configs.data.find((c: { provider_type: string }) => c.provider_type === "local");
    return await adminJson("/api/mount/create", {
      name: mountPath,
      mount_path: mountPath,
      storage_type: "local",
      storage_config_id: local.id,
      ...extra,
    });
  };

  const close = async () => {
    services.stopFollowing();
    await services.viewTally.close();
    await release();
  };

  return {
    app,
    services,
    kv,
    config,
    dir,
    request,
    statusOf,
    call,
    adminAuth,
    createKey,
    createStorageConfig,
    createLocalConfig,
    createS3rverConfig,
    createMount,
    close,
    [Symbol.asyncDispose]: close,
  };
}
