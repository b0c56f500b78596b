import assert from "node:assert/strict";
import {
  baseRedirect,
  copyTargets,
  crumbsOf,
  explorerHref,
  foldersCopiedIntoThemselves,
  isValidName,
  joinPath,
  parentOf,
  pathFromPathname,
} from "./explorer_paths.ts";

Deno.test("explorer paths: URL and path round trip, with odd names", () => {
  assert.equal(explorerHref("/"), "/mount-explorer");
  assert.equal(
    explorerHref("/docs/a b/文件#1.txt"),
    "/mount-explorer/docs/a%20b/%E6%96%87%E4%BB%B6%231.txt",
  );
  assert.equal(explorerHref("/docs", "x y.png"), "/mount-explorer/docs?preview=x%20y.png");
  for (const p of ["/", "/docs", "/docs/a b/文件#1.txt", "/a/100%"]) {
    assert.equal(pathFromPathname(explorerHref(p)), p);
  }
  assert.equal(pathFromPathname("/mount-explorer/"), "/");
  assert.equal(pathFromPathname("/mount-explorer/a/../b"), null);
  assert.equal(pathFromPathname("/mount-explorer/a%2Fb"), null);
  assert.equal(pathFromPathname("/mount-explorer/%E0%A4"), null);
  assert.equal(pathFromPathname("/mount-explorerx"), null);
});

Deno.test("explorer paths: parents, joins and crumbs", () => {
  assert.equal(parentOf("/a/b"), "/a");
  assert.equal(parentOf("/a"), "/");
  assert.equal(parentOf("/"), "/");
  assert.equal(joinPath("/", "a"), "/a");
  assert.equal(joinPath("/a", "b"), "/a/b");
  assert.deepEqual(crumbsOf("/a/b").map((c) => c.path), ["/", "/a", "/a/b"]);
});

Deno.test("explorer paths: key users stay inside their base path, separator-aware", () => {
  assert.equal(baseRedirect("/a/b", "/a"), null);
  assert.equal(baseRedirect("/a", "/a"), null);
  assert.equal(baseRedirect("/ab", "/a"), "/a");
  assert.equal(baseRedirect("/", "/a"), "/a");
  assert.equal(baseRedirect("/anything", "/"), null);
});

Deno.test("explorer paths: copying a folder into itself or below it is detected", () => {
  const sources = [
    { path: "/m/a", type: "directory" as const },
    { path: "/m/f.txt", type: "file" as const },
  ];
  assert.deepEqual(foldersCopiedIntoThemselves(sources, "/m/a"), ["/m/a"]);
  assert.deepEqual(foldersCopiedIntoThemselves(sources, "/m/a/sub"), ["/m/a"]);
  assert.deepEqual(foldersCopiedIntoThemselves(sources, "/m/ab"), []);
  assert.deepEqual(foldersCopiedIntoThemselves(sources, "/m"), []);
  assert.deepEqual(copyTargets(sources, "/n"), [
    { sourcePath: "/m/a", targetPath: "/n/a" },
    { sourcePath: "/m/f.txt", targetPath: "/n/f.txt" },
  ]);
});

Deno.test("explorer paths: names", () => {
  assert.equal(isValidName("a.txt"), true);
  assert.equal(isValidName(" "), false);
  assert.equal(isValidName(".."), false);
  assert.equal(isValidName("a/b"), false);
  assert.equal(isValidName("a\\b"), false);
});
