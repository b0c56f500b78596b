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
  /** Values each query parameter or body field name may take to hit a real record. */
  fields: Record<string, unknown[]>;
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
    fields: {
      path: ["/m/a.txt", "/m/dir"],
      oldPath: ["/m/a.txt"],
      newPath: ["/m/dir/moved.txt"],
      sourcePath: ["/m/a.txt"],
      targetPath: ["/m/dir/copy.txt"],
      paths: [["/m/dir/none.txt"]],
      mount_id: [String(mount.id)],
      mountId: [String(mount.id)],
      s3_config_id: [String(local.id)],
      storage_config_id: [String(local.id)],
      file_id: [String(file.id)],
      ids: [[String(paste.id)]],
    },
  };
}

/**
 * Adds the seed's values to an OpenAPI document: `examples` of the path parameters named in
 * `examples`, and of the query parameters and JSON body fields named in `fields` (also the
 * fields of objects in a body's arrays, such as a batch copy's `items`).
 */
export function withExamples(
  doc: Json,
  examples: Record<string, string[]>,
  fields: Record<string, unknown[]> = {},
): Json {
  const out = structuredClone(doc);
  const named = (values: unknown[]) =>
    Object.fromEntries(values.map((v, i) => [`seed${i}`, { value: v }]));
  for (const item of Object.values(out.paths as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(item)) {
      for (const p of (op.parameters ?? []) as Json[]) {
        const name = String(p.name);
        const values = p.in === "path" ? examples[name] : p.in === "query" ? fields[name] : null;
        if (values) p.examples = named(values);
      }
      const content = (op.requestBody as Json | undefined)?.content as Json | undefined;
      const body = (content?.["application/json"] as Json | undefined)?.schema as Json | undefined;
      if (body) addFieldExamples(body, fields, 2);
    }
  }
  return out;
}

function addFieldExamples(schema: Json, fields: Record<string, unknown[]>, depth: number): void {
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    if (fields[name]) prop.examples = fields[name];
    const items = prop.items as Json | undefined;
    if (depth > 1 && items?.properties) addFieldExamples(items, fields, depth - 1);
  }
}
