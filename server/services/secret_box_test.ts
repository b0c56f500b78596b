import assert from "node:assert/strict";
import { join } from "node:path";
import { checkSealingKey, SecretBox } from "./secret_box.ts";

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

Deno.test("an instance whose key cannot open the stored secrets refuses to start, with the reason", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(join(dir, "kv"));
  try {
    const none = () => Promise.resolve(null);
    const first = await SecretBox.open({ dataDir: dir, encryptionSecret: "shared secret" });
    await checkSealingKey(kv, first, none); // stores the check value
    const same = await SecretBox.open({
      dataDir: join(dir, "b"),
      encryptionSecret: "shared secret",
    });
    await checkSealingKey(kv, same, none);
    const other = await SecretBox.open({ dataDir: join(dir, "c"), encryptionSecret: null });
    await assert.rejects(
      () => checkSealingKey(kv, other, none),
      /does not match the one that sealed the stored secrets.*same\s+ENCRYPTION_SECRET/s,
    );

    // A KV from before the check value is proven with a secret sealed there.
    await kv.delete(["meta", "sealing_check"]);
    const sample = await first.seal("s3 secret");
    await assert.rejects(() => checkSealingKey(kv, other, () => Promise.resolve(sample)));
    assert.equal((await kv.get(["meta", "sealing_check"])).value, null, "nothing stored");
    await checkSealingKey(kv, first, () => Promise.resolve(sample));
    await checkSealingKey(kv, same, none);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
