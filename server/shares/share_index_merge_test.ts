import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { keys } from "../kv/keys.ts";
import { adminAuth } from "../services/auth.ts";
import { PasteCreateSchema, PasteUpdateSchema } from "../../shared/schemas/pastes.ts";
import { gramsOf } from "./share_index.ts";
import { mergeAllPending, mergePending, startIndexMerger } from "./share_index_merge.ts";

/** The grams a paste is posted under now, sorted, and whether it is pending. */
async function indexOf(t: TestApp, id: string) {
  const grams: string[] = [];
  for await (const e of t.kv.list({ prefix: keys.shareGramsPrefix("paste") })) {
    if (e.key[2] === id) grams.push(e.key[1] as string);
  }
  const pending = (await t.kv.get(keys.shareGramsPending("paste", id))).value !== null;
  return { grams: grams.sort(), pending };
}

const postedUnder = (...texts: string[]) => gramsOf(texts).sort();

/** `count` pastes by the admin, remarked r0, r1, …: each leaves a pending index row. */
async function createPastes(t: TestApp, count: number) {
  const admin = adminAuth();
  for (let i = 0; i < count; i++) {
    await t.services.pastes.create(
      admin,
      PasteCreateSchema.parse({ content: "x", remark: `r${i}` }),
    );
  }
}

/** The remarks among the search's results that hold `q`: random slugs may match `q` too. */
async function remarksFound(t: TestApp, q: string): Promise<string[]> {
  const res = await t.request(`/api/pastes?limit=100&search=${encodeURIComponent(q)}`, {
    auth: await t.adminAuth(),
  });
  const items: { slug: string; remark: string | null }[] = (await res.json()).data.items;
  const holds = (text: string) => text.toLowerCase().includes(q.toLowerCase());
  for (const i of items) assert.ok(holds(i.slug) || holds(i.remark ?? ""), JSON.stringify(i));
  return items.map((i) => i.remark ?? "").filter(holds).sort();
}

/** r1 and r10..r19, the remarks of createPastes holding "r1". */
const R1 = ["r1", ...Array.from({ length: 10 }, (_, i) => `r1${i}`)].sort();

async function search(t: TestApp, q: string): Promise<string[]> {
  const res = await t.request(`/api/pastes?limit=100&search=${encodeURIComponent(q)}`, {
    auth: await t.adminAuth(),
  });
  return (await res.json()).data.items.map((i: { slug: string }) => i.slug);
}

Deno.test("a create writes one pending row, no postings; merges, edits and deletes keep the index exact", async () => {
  await using t = await createTestApp();
  const pastes = t.services.pastes;
  const admin = adminAuth();
  const created = await pastes.create(
    admin,
    PasteCreateSchema.parse({ content: "x", slug: "first-slug", remark: "Meeting notes" }),
  );
  assert.deepEqual(await indexOf(t, created.id), { grams: [], pending: true });
  assert.deepEqual(await search(t, "notes"), ["first-slug"]);

  // Edited while pending: the pending row takes the new texts.
  const edit = (json: Record<string, unknown>) =>
    pastes.update(admin, created.id, PasteUpdateSchema.parse(json));
  await edit({ remark: "Budget draft" });
  assert.deepEqual(await search(t, "notes"), []);
  assert.equal(await mergeAllPending(t.kv), 1);
  assert.deepEqual(await indexOf(t, created.id), {
    grams: postedUnder("first-slug", "Budget draft"),
    pending: false,
  });
  assert.deepEqual(await search(t, "draft"), ["first-slug"]);

  // Edited once merged: the old postings go in the edit's commit, the new texts wait pending.
  await edit({ slug: "second-slug" });
  assert.deepEqual(await indexOf(t, created.id), { grams: [], pending: true });
  assert.deepEqual(await search(t, "first"), []);
  assert.deepEqual(await search(t, "second"), ["second-slug"]);
  await edit({ max_views: 3 }); // no text changed: the index is left alone
  assert.equal(await mergePending(t.kv, "paste"), 1);
  assert.deepEqual(
    (await indexOf(t, created.id)).grams,
    postedUnder("second-slug", "Budget draft"),
  );

  // Deleted, merged or pending: nothing of it stays.
  const other = await pastes.create(admin, PasteCreateSchema.parse({ content: "y", remark: "z" }));
  await pastes.deleteMany(admin, [created.id, other.id]);
  assert.deepEqual(await indexOf(t, created.id), { grams: [], pending: false });
  assert.deepEqual(await indexOf(t, other.id), { grams: [], pending: false });
  assert.equal(await mergeAllPending(t.kv), 0);
});

Deno.test("a merge that loses a race with an edit or a delete reads its batch again", async () => {
  await using t = await createTestApp();
  const admin = adminAuth();
  const make = (slug: string) =>
    t.services.pastes.create(admin, PasteCreateSchema.parse({ content: "x", slug }));
  const edited = await make("before-edit");
  const deleted = await make("before-delete");
  const kept = await make("kept-as-is");
  // The merger's first commit finds both changed under it: an edit and a delete land first.
  let raced = false;
  const race = async () => {
    if (raced) return;
    raced = true;
    await t.services.pastes.update(
      admin,
      edited.id,
      PasteUpdateSchema.parse({ slug: "after-edit" }),
    );
    await t.services.pastes.deleteMany(admin, [deleted.id]);
  };
  const forward = <T extends object>(target: T, prop: string | symbol) => {
    const value = Reflect.get(target, prop, target);
    return typeof value === "function" ? value.bind(target) : value;
  };
  const racing = new Proxy(t.kv, {
    get(kv, prop) {
      if (prop !== "atomic") return forward(kv, prop);
      return () =>
        new Proxy(kv.atomic(), {
          get(op, name) {
            if (name !== "commit") return forward(op, name);
            return async () => {
              await race();
              return await op.commit();
            };
          },
        });
    },
  });
  assert.equal(await mergePending(racing, "paste"), 2);
  assert.ok(raced);
  assert.deepEqual(await indexOf(t, edited.id), {
    grams: postedUnder("after-edit", ""),
    pending: false,
  });
  assert.deepEqual(await indexOf(t, deleted.id), { grams: [], pending: false });
  assert.deepEqual(await indexOf(t, kept.id), {
    grams: postedUnder("kept-as-is", ""),
    pending: false,
  });
  assert.deepEqual(await search(t, "edit"), ["after-edit"]);
  assert.deepEqual(await search(t, "before"), []);
});

Deno.test("the background merger merges what is pending and finishes its merge when stopped", async () => {
  await using t = await createTestApp();
  await createPastes(t, 25);
  const merger = startIndexMerger(t.kv, (msg) => assert.fail(msg));
  await merger.settled(); // it merges at once
  await merger.stop();
  const left = await Array.fromAsync(
    t.kv.list({ prefix: keys.shareGramsPendingPrefix("paste") }),
  );
  assert.deepEqual(left, []);
  assert.deepEqual(await remarksFound(t, "r1"), R1);
});

Deno.test("a stopping merger leaves a backlog to others instead of draining it first", async () => {
  await using t = await createTestApp();
  await createPastes(t, 25);
  const pending = async () =>
    (await Array.fromAsync(t.kv.list({ prefix: keys.shareGramsPendingPrefix("paste") })))
      .length;
  const merger = startIndexMerger(t.kv, (msg) => assert.fail(msg));
  await merger.stop(); // its first batch (10) had begun: it commits that one and no more
  assert.equal(await pending(), 15);
  assert.deepEqual(await remarksFound(t, "r1"), R1); // pending rows are searched all the same
  assert.equal(await mergeAllPending(t.kv), 15); // another instance takes the rest
  assert.equal(await pending(), 0);
});
