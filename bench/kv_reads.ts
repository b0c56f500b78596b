/**
 * A ceiling for bench/http.ts: a bare Deno.serve that makes, per request, the KV reads a share
 * page makes before it renders anything (server/shares/paste_lookup.ts `find` once the slug's hint
 * is known: the record, which holds a small paste's content, and its view counter in one
 * `getMany`), on a KV file in DIR (the caller removes it), and answers with the record's slug.
 *
 *   DIR=/tmp deno run -A bench/kv_reads.ts
 */
const dir = Deno.env.get("DIR") ?? Deno.makeTempDirSync();
const path = `${dir}/kv-reads-${crypto.randomUUID()}.kv`;
const kv = await Deno.openKv(path);
const id = "01JBENCHPASTE0000000000000";
const now = new Date().toISOString();
const content = "# Benchmark paste\n\n" + "Cubby keeps text and files for you. ".repeat(30);
await kv.atomic()
  .set(["pastes_by_slug", "bench"], id)
  .set(["pastes", id], {
    id,
    slug: "bench",
    remark: null,
    content_id: id,
    content_size: new TextEncoder().encode(content).length,
    content_chunks: 0,
    content_text: content,
    password_hash: null,
    expires_at: null,
    max_views: 0,
    created_by: "admin",
    created_at: now,
    updated_at: now,
  })
  .commit();

Deno.serve({
  hostname: "127.0.0.1",
  port: Number(Deno.env.get("PORT") ?? 0),
  onListen: ({ hostname, port }) => console.log(`kv reads listening on http://${hostname}:${port}`),
}, async () => {
  const [rec] = await kv.getMany<[{ slug: string; content_text: string }, Deno.KvU64]>([
    ["pastes", id],
    ["paste_views", id],
  ]);
  if (!rec.value?.content_text) return new Response("missing", { status: 500 });
  return new Response(rec.value.slug, { headers: { "content-type": "text/plain" } });
});
