/**
 * The KV ceilings of bench/http.ts: a bare Deno.serve that makes, per request, the one KV
 * operation a hot path must make, on a KV file in DIR (the server's data directory: the same
 * disk), and nothing else. MODE picks the operation:
 *
 * - `get`: one `kv.get` of a paste record holding its content inline (CONTENT, about 2 kB), answered
 *   with that content as text/plain, like a raw view. The ceiling of the raw and JSON views.
 * - `get-grouped`: the same read through `server/kv/read_groups.ts`, as Cubby's share lookups make
 *   it: reads that arrive together share one `getMany`. Not a goal: it shows what grouping gives
 *   the bare read, beside what it gives Cubby.
 * - `page-read`: the share page's read, one `getMany` of the record and its view counter
 *   (server/shares/paste_lookup.ts `read` once the slug's hint is known), answered with the slug.
 *   Not a goal: it shows how much of the share page's cost its read is.
 * - `commit`: one `kv.atomic().check().set().set().commit()`, a new record and its slug index
 *   like a create's, answered 201 with the id; the request body is not read. The ceiling of
 *   paste creates.
 *
 *   DIR=/tmp MODE=get deno run -A bench/kv_serve.ts
 */
import type { PasteRecord } from "../server/shares/paste_record.ts";
import { pasteRecord } from "../tests/helpers/records.ts";
import { readGroupsOf } from "../server/kv/read_groups.ts";

const dir = Deno.env.get("DIR") ?? Deno.makeTempDirSync();
const mode = Deno.env.get("MODE") ?? "get";
if (!["get", "get-grouped", "page-read", "commit"].includes(mode)) {
  throw new Error(`unknown MODE ${mode}`);
}
const path = `${dir}/kv-${mode}-${crypto.randomUUID()}.kv`;
const kv = await Deno.openKv(path);
const id = "01JBENCHPASTE0000000000000";
const content = Deno.env.get("CONTENT") ?? "Cubby keeps text and files for you. ".repeat(56);
/** A paste record holding `text` inline, as a small paste's is stored. */
const record = (id: string, slug: string, text: string) =>
  pasteRecord(id, slug, {
    content_id: id,
    content_size: new TextEncoder().encode(text).length,
    content_chunks: 0,
    content_text: text,
  }, text.slice(0, 200));
await kv.atomic().set(["pastes_by_slug", "bench"], id).set(
  ["pastes", id],
  record(id, "bench", content),
)
  .commit();

const reads = readGroupsOf(kv);
const TEXT = { "content-type": "text/plain; charset=utf-8" };

const handlers: Record<string, () => Promise<Response>> = {
  async get() {
    const rec = await kv.get<PasteRecord>(["pastes", id]);
    if (!rec.value) return new Response("missing", { status: 500 });
    return new Response(rec.value.content_text, { headers: TEXT });
  },
  async "get-grouped"() {
    const rec = await reads.get<PasteRecord>(["pastes", id]);
    if (!rec.value) return new Response("missing", { status: 500 });
    return new Response(rec.value.content_text, { headers: TEXT });
  },
  async "page-read"() {
    const [rec] = await kv.getMany<[PasteRecord, Deno.KvU64]>([["pastes", id], [
      "paste_views",
      id,
    ]]);
    if (!rec.value?.content_text) return new Response("missing", { status: 500 });
    return new Response(rec.value.slug, { headers: TEXT });
  },
  async commit() {
    const newId = crypto.randomUUID();
    const res = await kv.atomic()
      .check({ key: ["pastes", newId], versionstamp: null })
      .set(["pastes", newId], record(newId, newId, "Benchmark paste from wrk: hello, Cubby!"))
      .set(["pastes_by_slug", newId], newId)
      .commit();
    if (!res.ok) return new Response("conflict", { status: 409 });
    return new Response(newId, { status: 201, headers: TEXT });
  },
};
const handler = handlers[mode];

Deno.serve({
  hostname: "127.0.0.1",
  port: Number(Deno.env.get("PORT") ?? 0),
  onListen: ({ hostname, port }) =>
    console.log(`kv ${mode} listening on http://${hostname}:${port}`),
}, handler);

// Removed with the data directory by the caller; close on SIGTERM so the file is complete.
Deno.addSignalListener("SIGTERM", () => {
  kv.close();
  Deno.exit(0);
});
