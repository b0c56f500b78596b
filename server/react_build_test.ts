/**
 * The real server (started as a child process) must load React's production builds when
 * NODE_ENV is not set, as in the Docker image, `deno task start` and the compiled binary. From
 * its sources, an explicit NODE_ENV=development loads the development builds; the bundle that
 * `deno task start` runs holds the production builds only.
 */
import assert from "node:assert/strict";
import { startServer } from "../tests/helpers/server.ts";
import { bundledServer } from "../tests/helpers/bundle.ts";
import { tempDir } from "../tests/helpers/temp.ts";
import { loadedReactBuild } from "./react_build.ts";

function reportedBuild(output: string): string | undefined {
  return output.match(/React server build: (\w+)/)?.[1];
}

/** The build the server logged; waits briefly, as its stdout may trail the HTTP reply. */
async function awaitReportedBuild(server: { output(): string }): Promise<string | undefined> {
  for (let i = 0; i < 50 && !reportedBuild(server.output()); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return reportedBuild(server.output());
}

/** Requests a share page (the first one imports the server-rendering modules). */
async function requestPage(url: string): Promise<string> {
  const res = await fetch(`${url}/paste/abcdef`);
  assert.equal(res.status, 404);
  return await res.text();
}

Deno.test("the server loads React's production build when NODE_ENV is unset", async () => {
  await using server = await startServer({ NODE_ENV: "" });
  assert.equal(reportedBuild(server.output()), undefined, "React is not loaded at start");
  assert.match(await requestPage(server.url), /<div id="root" data-ssr="1">/);
  assert.equal(await awaitReportedBuild(server), "production", server.output());
});

Deno.test("an explicit NODE_ENV=development keeps React's development build", async () => {
  await using server = await startServer({ NODE_ENV: "development" }, { entry: "main.ts" });
  await requestPage(server.url);
  assert.equal(await awaitReportedBuild(server), "development", server.output());
});

Deno.test("the bundled server runs React's production build whatever NODE_ENV says", async () => {
  await using dir = await tempDir("cubby-react-bundle-");
  const entry = await bundledServer(dir.path);
  await using server = await startServer({ NODE_ENV: "development" }, { entry });
  await requestPage(server.url);
  assert.equal(await awaitReportedBuild(server), "production", server.output());
});

Deno.test("loadedReactBuild reads the builds this process loaded", async () => {
  await import("react-dom/server");
  const expected = Deno.env.get("NODE_ENV") === "production" ? "production" : "development";
  assert.equal(loadedReactBuild(), expected);
});
