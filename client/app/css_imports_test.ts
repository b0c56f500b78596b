import assert from "node:assert/strict";
import { join } from "node:path";

const CLIENT = join(import.meta.dirname!, "..");

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* sources(p);
    else if (/\.tsx?$/.test(e.name)) yield p;
  }
}

Deno.test("stylesheets are imported only by client/main.tsx (server rendering cannot load CSS)", async () => {
  const offenders: string[] = [];
  for await (const file of sources(CLIENT)) {
    if (file.endsWith("main.tsx")) continue;
    if (/^import\s+["'][^"']+\.css["']/m.test(await Deno.readTextFile(file))) offenders.push(file);
  }
  assert.deepEqual(offenders, []);
});
