import assert from "node:assert/strict";
import { join } from "node:path";
import { SecretBox } from "./secret_box.ts";

Deno.test("secrets round-trip, and a key file is created once with mode 0600", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const box = await SecretBox.open({ dataDir: dir, encryptionSecret: null });
    const sealed = await box.seal("s3cr3t-ключ");
    assert.ok(!sealed.includes("s3cr3t"));
    assert.notEqual(await box.seal("s3cr3t-ключ"), sealed, "fresh IV each time");
    assert.equal(await box.open(sealed), "s3cr3t-ключ");
    const stat = await Deno.stat(join(dir, "secret.key"));
    assert.equal(stat.mode! & 0o777, 0o600);
    const again = await SecretBox.open({ dataDir: dir, encryptionSecret: null });
    assert.equal(await again.open(sealed), "s3cr3t-ключ", "same key after a restart");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ENCRYPTION_SECRET decides the key; tampering and wrong keys are refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const a = await SecretBox.open({ dataDir: dir, encryptionSecret: "one" });
    const b = await SecretBox.open({ dataDir: dir, encryptionSecret: "two" });
    const sealed = await a.seal("value");
    await assert.rejects(() => b.open(sealed));
    const [v, iv, ct] = sealed.split(":");
    const flipped = ct[0] === "A" ? "B" + ct.slice(1) : "A" + ct.slice(1);
    await assert.rejects(() => a.open(`${v}:${iv}:${flipped}`));
    await assert.rejects(() => a.open("garbage"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
