/**
 * The real server (main.ts, started as a child process) must load React's production builds
 * when NODE_ENV is not set, as in the Docker image, `deno task start` and the compiled binary.
 */
import { equal as assertEquals, match as assertMatch } from "node:assert/strict";
import { startServer } from "../tests/helpers/server.ts";
import { loadedReactBuild } from "./react_build.ts";

function reportedBuild(output: string): string | undefined {
  return output.match(/React server build: (\w+)/)?.[1];
}

Deno.test("main.ts loads React's production build when NODE_ENV is unset", async () => {
  const server = await startServer({ NODE_ENV: "" });
  try {
    assertEquals(reportedBuild(server.output()), "production", server.output());
    // The share page path renders with it.
    const res = await fetch(`${server.url}/paste/abcdef`);
    assertEquals(res.status, 404);
    assertMatch(await res.text(), /<div id="root" data-ssr="1">/);
  } finally {
    await server.stop();
  }
});

Deno.test("an explicit NODE_ENV=development keeps React's development build", async () => {
  const server = await startServer({ NODE_ENV: "development" });
  try {
    assertEquals(reportedBuild(server.output()), "development", server.output());
  } finally {
    await server.stop();
  }
});

Deno.test("loadedReactBuild reads the builds this process loaded", async () => {
  await import("react-dom/server");
  const expected = Deno.env.get("NODE_ENV") === "production" ? "production" : "development";
  assertEquals(loadedReactBuild(), expected);
});
