/** The client's texts: both languages say the same things, and a Chinese locale gets zh-CN. */
import assert from "node:assert/strict";
import { TEXTS } from "./messages.ts";

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

Deno.test("zh-CN and en-US have the same texts with the same placeholders", () => {
  const en = TEXTS["en-US"] as Record<string, string>;
  const zh = TEXTS["zh-CN"] as Record<string, string>;
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const id of Object.keys(en)) {
    assert.deepEqual(placeholders(zh[id]), placeholders(en[id]), id);
  }
});

Deno.test("the client speaks the system locale's language", async () => {
  const run = async (lang: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", new URL("./cubby.ts", import.meta.url).pathname, "get", "nonsense"],
      env: { LANG: lang, LC_ALL: lang },
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stderr);
  };
  assert.match(await run("zh_CN.UTF-8"), /^错误：不是链接/);
  assert.match(await run("en_US.UTF-8"), /^error: not a link/);
});
