/**
 * Records for the schemathesis run (tests/conformance/schemathesis.ts) to hit: an admin session,
 * an API key with a mix of permissions, a mount with a file, pastes (open and locked) and a file
 * share. Their ids and slugs become `examples` of the OpenAPI path parameters, so that besides
 * random values the fuzzer reaches real records (examples phase) and not only 404s.
 */
import { loginAdmin, type TestServer } from "../helpers/server.ts";

/** The key's permissions: enough to reach most handlers, not enough for every one (403s too). */
export const KEY_PERMISSIONS = {
  text: true,
  file: true,
  mount_view: true,
  mount_upload: true,
  mount_copy: true,
  mount_rename: false,
  mount_delete: false,
  webdav_read: true,
  webdav_manage: false,
};

/** What the seed created. */
export type Seed = {
  /** Admin session tokens: one per admin run, since a run may end its own session. */
  adminTokens: string[];
  /** The API key, as the `Authorization` value. */
  keyAuth: string;
  /** Values each path parameter name may take to hit a real record. */
  examples: Record<string, string[]>;
};

type Json = Record<string, unknown>;

async function call(
  server: TestServer,
  auth: string,
  method: string,
  path: string,
  body?: BodyInit | Json,
): Promise<Json> {
  const json = body !== undefined && !(body instanceof FormData) && typeof body === "object";
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: auth,
      ...(json ? { "content-type": "application/json" } : {}),
    },
    body: json ? JSON.stringify(body) : body as BodyInit | undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`seed: ${method} ${path} answered ${res.status}: ${text}`);
  return text.startsWith("{") ? JSON.parse(text).data ?? {} : {};
}

/** Logs in and creates the records; `adminRuns` is how many admin sessions to open. */
export async function seed(server: TestServer, adminRuns: number): Promise<Seed> {
  const adminTokens: string[] = [];
  for (let i = 0; i < adminRuns; i++) adminTokens.push(await loginAdmin(server));
  const admin = `Bearer ${adminTokens[0]}`;
  const key = await call(server, admin, "POST", "/api/admin/api-keys", {
    name: "conformance",
    permissions: KEY_PERMISSIONS,
  });
  const configs = await call(server, admin, "GET", "/api/s3-configs") as unknown as Json[];
  const local = configs.find((c) => c.provider_type === "local")!;
  const mount = await call(server, admin, "POST", "/api/mount/create", {
    name: "m",
    mount_path: "/m",
    storage_type: "local",
    storage_config_id: local.id,
  });
  await call(server, admin, "POST", "/api/fs/mkdir", { path: "/m/dir" });
  await call(server, admin, "POST", "/api/fs/update", { path: "/m/a.txt", content: "hello" });
  const paste = await call(server, admin, "POST", "/api/paste", { content: "x", slug: "open" });
  const locked = await call(server, admin, "POST", "/api/paste", {
    content: "y",
    slug: "locked",
    password: "pw",
  });
  const form = new FormData();
  form.set("file", new Blob(["file body"]), "f.txt");
  form.set("slug", "fileshare");
  const file = await call(server, admin, "POST", "/api/upload", form);
  const ids = (...xs: Json[]) => xs.map((x) => String(x.id));
  return {
    adminTokens,
    keyAuth: `ApiKey ${key.key}`,
    examples: {
      slug: ["open", "locked", "fileshare"],
      filename: ["note.txt"],
      group: ["1", "4"],
      configId: [String(local.id)],
      id: [...ids(paste, locked, file, mount, key, local), "open"],
      path: ["m/a.txt"],
    },
  };
}

/** Adds the seed's values to each path parameter's `examples` in an OpenAPI document. */
export function withExamples(doc: Json, examples: Record<string, string[]>): Json {
  const out = structuredClone(doc);
  for (const item of Object.values(out.paths as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(item)) {
      for (const p of (op.parameters ?? []) as Json[]) {
        const values = p.in === "path" ? examples[String(p.name)] : undefined;
        if (!values) continue;
        p.examples = Object.fromEntries(values.map((v, i) => [`seed${i}`, { value: v }]));
      }
    }
  }
  return out;
}
