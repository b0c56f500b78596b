/**
 * The local driver's lookups and page sizes: `lookup` tells objects, folders and nothing apart
 * as `head` and a listing would (empty folders made by createFolder, folders holding files, no
 * linked folders, nothing outside the root), and a listing page holds up to 10,000 entries when
 * asked, 1,000 when not.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { withLocalDriver } from "../../tests/helpers/local_driver.ts";
import { mountScoped } from "./share_area.ts";

async function rejectsWith(p: Promise<unknown>, code: string, status: number) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected AppError, got ${err}`);
    assert.deepEqual([err.code, err.status], [code, status]);
    return true;
  });
}

Deno.test("local: lookup agrees with head and listings for objects, folders, links and missing paths", async () => {
  await withLocalDriver(async (d, root) => {
    await d.createFolder("empty");
    await d.put("full/a.txt", "a");
    await d.put("full/deeper/b.txt", "b");
    const outside = join(root, "..", "outside");
    await Deno.mkdir(join(outside, "sub"), { recursive: true });
    await Deno.symlink(outside, join(root, "out-link"));
    await Deno.symlink(join(root, "full"), join(root, "in-link"));
    await Deno.symlink(join(root, "full", "a.txt"), join(root, "file-link.txt"));

    const top = await d.list("", { delimiter: "/" });
    assert.deepEqual(top.prefixes, ["empty/", "full/"], "linked folders are not listed");
    for (const key of ["empty", "full", "full/deeper", "in-link/deeper"]) {
      assert.equal(await d.lookup(key), "folder", key);
    }
    for (const key of ["full/a.txt", "file-link.txt"]) {
      assert.deepEqual(await d.lookup(key), await d.head(key), key);
    }
    assert.equal((await d.head("full/a.txt"))?.size, 1);
    for (const key of ["missing", "full/missing", "full/a.txt/below", "in-link"]) {
      assert.equal(await d.lookup(key), null, key);
    }
    // Through a link that leaves the root: refused like a read, never answered.
    await rejectsWith(d.lookup("out-link/sub"), "storage_path_invalid", 400);
    await rejectsWith(d.lookup("../outside"), "storage_path_invalid", 400);
    // Cubby's own area: the driver's names are not keys, and mounts never reach shares.
    await rejectsWith(d.lookup(".cubby-tmp"), "storage_path_invalid", 400);
    await rejectsWith(mountScoped(d).lookup!(".cubby-shares"), "storage_path_reserved", 403);
  });
});

Deno.test("local: a listing page holds up to 10,000 entries when asked, 1,000 by default", async () => {
  await withLocalDriver(async (d, root) => {
    await d.createFolder("many");
    const names = Array.from({ length: 2_500 }, (_, i) => `f${String(i).padStart(5, "0")}`);
    for (const name of names) await Deno.writeTextFile(join(root, "many", name), "x");

    const first = await d.list("many/", { delimiter: "/" });
    assert.equal(first.items.length, 1_000);
    assert.ok(first.cursor);
    const whole = await d.list("many/", { delimiter: "/", limit: 50_000 });
    assert.deepEqual(whole.items.map((o) => o.key), names.map((n) => `many/${n}`));
    assert.equal(whole.cursor, null);
    assert.ok(whole.items.every((o) => o.size === 1));

    // Pages of any size walk the same keys in the same order.
    const keys: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof d.list>> = await d.list("many/", {
        delimiter: "/",
        limit: 700,
        cursor,
      });
      keys.push(...page.items.map((o) => o.key));
      cursor = page.cursor;
    } while (cursor);
    assert.deepEqual(keys, names.map((n) => `many/${n}`));
  });
});
