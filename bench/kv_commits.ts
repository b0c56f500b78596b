/**
 * The ceiling of write paths for bench/http.ts: how many KV commits a bare loop makes on the
 * same disk, with CONCURRENCY commits in flight (like concurrent requests). Each commit sets a
 * small record and an index key, as a create does. Prints `commits/s: N`.
 *
 *   DIR=/tmp SECONDS=5 CONCURRENCY=32 deno run -A bench/kv_commits.ts
 */
const dir = Deno.env.get("DIR") ?? Deno.makeTempDirSync();
const seconds = Number(Deno.env.get("SECONDS") ?? 5);
const concurrency = Number(Deno.env.get("CONCURRENCY") ?? 32);
const path = `${dir}/kv-commits-${crypto.randomUUID()}.kv`;
const kv = await Deno.openKv(path);
const record = {
  content: "Benchmark paste from wrk: hello, Cubby!",
  created_at: new Date().toISOString(),
};
let commits = 0;
let n = 0;
const end = performance.now() + seconds * 1000;
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (performance.now() < end) {
    const id = `${++n}`;
    const res = await kv.atomic()
      .check({ key: ["records", id], versionstamp: null })
      .set(["records", id], record)
      .set(["records_by_slug", id], id)
      .commit();
    if (!res.ok) throw new Error("commit failed");
    commits++;
  }
}));
kv.close();
for (const suffix of ["", "-shm", "-wal"]) await Deno.remove(path + suffix).catch(() => {});
console.log(`commits/s: ${(commits / seconds).toFixed(1)}`);
