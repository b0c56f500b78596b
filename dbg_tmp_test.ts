import { createTestApp } from "./tests/helpers/app.ts";
Deno.test("dbg", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const fd = new FormData();
  fd.set("file", new Blob(["file body"]), "f.txt");
  const r = await t.request("/api/upload", { method: "POST", auth, body: fd });
  console.log(r.status, await r.text());
});
