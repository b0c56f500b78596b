/**
 * Paste lookups by slug on a real KV file, with two repos over the same store standing for two
 * instances: each keeps its own slug hints, so one instance's hints go stale when the other
 * edits, moves or deletes a paste, and a stale hint must never give a wrong answer.
 */
import assert from "node:assert/strict";
import { ulid } from "ulid";
import { CHUNK_BYTES, type PasteRecord, PasteRepo } from "./paste_repo.ts";
import { INLINE_BYTES } from "./paste_content.ts";
import { pasteRecord } from "../../tests/helpers/records.ts";

async function withRepos(fn: (a: PasteRepo, b: PasteRepo, kv: Deno.Kv) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "cubby-paste-repo-" });
  const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
  try {
    await fn(new PasteRepo(kv), new PasteRepo(kv), kv);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Saves a paste of `text` through `repo` as the service does; returns its record. */
async function save(repo: PasteRepo, slug: string, text: string): Promise<PasteRecord> {
  const stored = await repo.storeContent(text);
  const rec = pasteRecord(ulid(), slug, stored.ref, text.slice(0, 10));
  assert.equal(await repo.insert(rec, stored.firstChunk), "ok");
  return rec;
}

/** The text a delivery of `slug` through `repo` would show. */
async function textOf(repo: PasteRepo, slug: string): Promise<string | null> {
  const found = await repo.findShare(slug);
  if (!found) return null;
  if (found.value.content_text !== undefined) return found.value.content_text;
  const bytes = found.content ?? await repo.readContent(found.value);
  return bytes && new TextDecoder().decode(bytes);
}

Deno.test("small content lives in the record; larger content in chunks", async () => {
  await withRepos(async (a, _b, kv) => {
    const small = await save(a, "small", "s".repeat(INLINE_BYTES));
    assert.equal(small.content_chunks, 0);
    assert.equal(small.content_text, "s".repeat(INLINE_BYTES));
    const one = await save(a, "one", "o".repeat(INLINE_BYTES + 1));
    assert.equal(one.content_chunks, 1);
    assert.equal(one.content_text, undefined);
    const three = await save(a, "three", "t".repeat(CHUNK_BYTES * 2 + 1));
    assert.equal(three.content_chunks, 3);
    const chunks = await Array.fromAsync(kv.list({ prefix: ["paste_chunks"] }));
    assert.equal(chunks.length, 4);
    // Multi-byte text: the limit is in UTF-8 bytes, not characters.
    const cjk = await save(a, "cjk", "字".repeat(INLINE_BYTES / 3 + 1));
    assert.equal(cjk.content_chunks, 1);
    for (const [slug, text] of [["small", "s".repeat(INLINE_BYTES)], ["cjk", "字".repeat(1366)]]) {
      assert.equal(await textOf(a, slug), text);
      assert.equal(await textOf(new PasteRepo(kv), slug), text, "without hints too");
    }
  });
});

Deno.test("a stale slug hint never leads to the wrong paste or content", async () => {
  await withRepos(async (a, b) => {
    const first = await save(a, "shared", "first ".repeat(INLINE_BYTES)); // one chunk
    assert.equal(await textOf(a, "shared"), "first ".repeat(INLINE_BYTES));
    assert.equal(await textOf(b, "shared"), "first ".repeat(INLINE_BYTES));

    // Instance b edits the content: a's hint points at the old chunk, which is gone.
    const entry = (await b.findShare("shared"))!;
    const stored = await b.storeContent("second ".repeat(INLINE_BYTES));
    const next = { ...entry.value, ...stored.ref };
    assert.equal(await b.replace(entry, next, false, stored.firstChunk), "ok");
    await b.deleteContent(first.content_id);
    const seen = await a.findShare("shared");
    assert.equal(seen?.content, undefined, "no content from the old version's hint");
    assert.equal(await textOf(a, "shared"), "second ".repeat(INLINE_BYTES));

    // b moves the slug away and another paste takes it: a must follow the index.
    const moved = (await b.findShare("shared"))!;
    assert.equal(await b.replace(moved, { ...moved.value, slug: "elsewhere" }, false), "ok");
    assert.equal(await textOf(a, "shared"), null);
    await save(b, "shared", "third");
    assert.equal(await textOf(a, "shared"), "third");
    assert.equal(await textOf(a, "elsewhere"), "second ".repeat(INLINE_BYTES));

    // b deletes it: a answers missing.
    assert.ok(await b.remove((await b.findShare("shared"))!));
    assert.equal(await a.findShare("shared"), null);
  });
});
