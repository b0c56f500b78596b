/** The listing half of bench/fs.ts: every page of a large folder, through the API and the driver. */
import { join } from "node:path";
import type { TestApp } from "../tests/helpers/app.ts";
import { pad } from "./fs_names.ts";
import { median, timed } from "./timing.ts";

/** The app under test, its loopback URL and an admin Authorization header. */
export type BenchApp = { t: TestApp; base: string; admin: string };

/** Creates a local storage config rooted in the app's temp dir; returns its id. */
export async function createStorage({ t, admin }: BenchApp, name: string): Promise<string> {
  const res = await t.request("/api/s3-configs", {
    method: "POST",
    auth: admin,
    json: { name, provider_type: "local", root_dir: join(t.dir, name) },
  });
  return (await res.json()).data.id;
}

/** Creates a local mount with a cache TTL; returns its id. */
export async function createMount(
  { t, admin }: BenchApp,
  path: string,
  cfg: string,
  cacheTtl: number,
): Promise<string> {
  const res = await t.request("/api/mount/create", {
    method: "POST",
    auth: admin,
    json: {
      name: path.slice(1),
      mount_path: path,
      storage_type: "local",
      storage_config_id: cfg,
      cache_ttl: cacheTtl,
    },
  });
  const body = await res.json();
  if (!body.success) throw new Error(`mount: ${JSON.stringify(body)}`);
  return body.data.id;
}

/** Lists every page of `path` over HTTP; returns the number of entries. */
async function listOverHttp(base: string, admin: string, path: string): Promise<number> {
  let n = 0;
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams({ path, limit: "1000" });
    if (cursor) qs.set("cursor", cursor);
    const res = await fetch(`${base}/api/fs/list?${qs}`, { headers: { authorization: admin } });
    const body = await res.json();
    if (!body.success) throw new Error(`list: ${JSON.stringify(body)}`);
    n += body.data.items.length;
    cursor = body.data.cursor;
  } while (cursor);
  return n;
}

/** Times listing FILES objects through the API (uncached, cached) and the driver, RUNS times. */
export async function benchListing(
  app: BenchApp,
  { files: FILES, runs: RUNS }: { files: number; runs: number },
) {
  const { t, base, admin } = app;
  const cfg = await createStorage(app, "bench-list");
  await createMount(app, "/big", cfg, 0);
  await createMount(app, "/big-cached", cfg, 300);
  const dir = join(t.dir, "bench-list", "folder");
  await Deno.mkdir(dir, { recursive: true });
  const bytes = new TextEncoder().encode("sixteen bytes...");
  for (let i = 0; i < FILES; i += 500) {
    await Promise.all(
      Array.from(
        { length: Math.min(500, FILES - i) },
        (_, j) => Deno.writeFile(join(dir, `file-${pad(i + j, 6)}.bin`), bytes),
      ),
    );
  }
  const driver = await t.services.storageConfigs.driverFor(
    await t.services.storageConfigs.getRecord(cfg),
  );
  const direct = async () => {
    let n = 0;
    let cursor: string | null = null;
    do {
      const page = await driver.list("folder/", { delimiter: "/", cursor, limit: 1000 });
      n += page.items.length + page.prefixes.length;
      cursor = page.cursor;
    } while (cursor);
    if (n !== FILES) throw new Error(`driver listed ${n}`);
  };
  const api = (path: string) => async () => {
    const n = await listOverHttp(base, admin, path);
    if (n !== FILES) throw new Error(`api listed ${n}`);
  };
  const rows: { label: string; times: number[] }[] = [
    { label: "Local driver `list` (direct, 1,000 per page)", times: [] },
    { label: "`GET /api/fs/list`, mount cache TTL 0 (uncached)", times: [] },
    { label: "`GET /api/fs/list`, mount cache TTL 300 s, warm cache", times: [] },
  ];
  await direct();
  await api("/big/folder")();
  await api("/big-cached/folder")(); // fills the directory cache
  for (let r = 0; r < RUNS; r++) {
    rows[0].times.push(await timed(direct));
    rows[1].times.push(await timed(api("/big/folder")));
    rows[2].times.push(await timed(api("/big-cached/folder")));
  }
  return rows.map((row) => ({
    label: row.label,
    median: median(row.times),
    min: Math.min(...row.times),
  }));
}
