import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";
import { ApiKeyRepo } from "../kv/api_key_repo.ts";
import { keys } from "../kv/keys.ts";
import { ApiKeyService } from "./api_keys.ts";

Deno.test("a key's last-used time is written once per interval, not on every request", async () => {
  await using t = await createTestApp();
  const { key, id } = await t.createKey({ text: true });
  const kv = t.kv;
  const lastUsed = () => kv.get<string>(keys.apiKeyLastUsed(id));

  const throttled = new ApiKeyService(new ApiKeyRepo(kv));
  assert.ok(await throttled.verify(key));
  const first = await lastUsed();
  assert.ok(first.value, "the first use is recorded");
  for (let i = 0; i < 5; i++) assert.ok(await throttled.verify(key));
  assert.equal((await lastUsed()).versionstamp, first.versionstamp, "no write within a minute");

  const everyTime = new ApiKeyService(new ApiKeyRepo(kv), 0);
  assert.ok(await everyTime.verify(key));
  assert.notEqual((await lastUsed()).versionstamp, first.versionstamp, "written once due");
  assert.equal(await throttled.verify("cb_not-a-key"), null);
});
