// The client's import graph has no circles and points one way: the screens (features/) sit on the
// shared layers (components/, lib/, api/, auth/, i18n/, offline/, pwa/, the app-wide state in
// app/), which never import a screen; only the shell (app/Layout.tsx) and the entries wire the
// screens in. Client code never imports server code; unit tests beside it may, to drive a real
// server (tests/helpers/client_page.ts).
import assert from "node:assert/strict";
import { buildGraph, describeCycle, findCycles } from "./helpers/import_graph.ts";

const SHELL = "client/app/Layout.tsx";
const ENTRIES = new Set(["client/App.tsx", "client/main.tsx", "client/share_main.tsx"]);
/** The layers below the screens (the shell is in app/, but above them). */
const SHARED_LAYERS = /^client\/(components|lib|api|auth|i18n|offline|pwa|sw|share|app)\//;

const isTest = (file: string) => /_test\.tsx?$/.test(file);

/** Every `file -> target` of the client's non-test modules for which `bad` holds. */
async function violations(bad: (file: string, target: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  for (const [file, targets] of await buildGraph("client")) {
    if (isTest(file)) continue;
    for (const target of targets) if (bad(file, target)) found.push(`${file} -> ${target}`);
  }
  return found;
}

Deno.test("client/ has no import circles", async () => {
  const graph = await buildGraph("client");
  const cycles = findCycles(graph).map((component) => describeCycle(graph, component));
  assert.deepEqual(cycles, [], `import circles in client/:\n${cycles.join("\n")}`);
});

Deno.test("client code never imports server code", async () => {
  const found = await violations((_, target) => target.startsWith("server/"));
  assert.deepEqual(found, [], `client modules import server/:\n${found.join("\n")}`);
});

Deno.test("components/, lib/ and the other shared layers never import a screen", async () => {
  const found = await violations((file, target) =>
    file !== SHELL && SHARED_LAYERS.test(file) && target.startsWith("client/features/")
  );
  assert.deepEqual(found, [], `shared layers import features/:\n${found.join("\n")}`);
});

Deno.test("lib/ and api/ never import components/ or the app's state", async () => {
  const found = await violations((file, target) =>
    /^client\/(lib|api)\//.test(file) && /^client\/(components|app)\//.test(target)
  );
  assert.deepEqual(found, [], `lib/ or api/ import components/ or app/:\n${found.join("\n")}`);
});

Deno.test("only the entries import the shell", async () => {
  const found = await violations((file, target) => target === SHELL && !ENTRIES.has(file));
  assert.deepEqual(found, [], `the shell is imported by:\n${found.join("\n")}`);
});
