/**
 * A ceiling for bench/scale.ts: a bare loop against a KV Connect server (KV_URL, with
 * DENO_KV_ACCESS_TOKEN), with CONCURRENCY operations in flight for SECONDS, that makes the one KV
 * operation a request kind must make: `read` (a `getMany` of a record and its counter, as a
 * share view does) or `commit` (a checked commit of a record and an index, as a create does).
 * Prints `ops/s: N`.
 *
 *   KV_URL=http://127.0.0.1:4512 OP=read deno run -A bench/kv_connect_loop.ts
 */
const kv = await Deno.openKv(Deno.env.get("KV_URL")!);
const op = Deno.env.get("OP") ?? "read";
const seconds = Number(Deno.env.get("SECONDS") ?? 5);
const concurrency = Number(Deno.env.get("CONCURRENCY") ?? 32);
const run = crypto.randomUUID();
await kv.set(["bench_loop", run, "record"], { slug: "bench", text: "x".repeat(1200) });

let done = 0;
const end = performance.now() + seconds * 1000;
async function worker(w: number) {
  for (let i = 0; performance.now() < end; i++) {
    if (op === "read") {
      await kv.getMany([["bench_loop", run, "record"], ["bench_loop", run, "counter"]]);
    } else {
      const id = `${w}-${i}`;
      await kv.atomic()
        .check({ key: ["bench_loop", run, "index", id], versionstamp: null })
        .set(["bench_loop", run, "rec", id], { id, text: "Benchmark paste from wrk" })
        .set(["bench_loop", run, "index", id], id)
        .commit();
    }
    done++;
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
console.log(`ops/s: ${(done / ((performance.now() - started) / 1000)).toFixed(1)}`);
kv.close();
