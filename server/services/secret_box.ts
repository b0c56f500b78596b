/**
 * Encrypts storage secrets at rest with AES-256-GCM. The key comes from ENCRYPTION_SECRET
 * (hashed to 256 bits) or from a random key file under DATA_DIR (mode 0600) made on first start.
 * Ciphertexts read `v1:<iv base64>:<ciphertext base64>`.
 */
import { join } from "node:path";
import type { Config } from "../config.ts";
import { fromBase64, toBase64 } from "../lib/crypto.ts";
import { keys } from "../kv/keys.ts";

const KEY_FILE = "secret.key";

async function loadKeyBytes(
  config: Pick<Config, "encryptionSecret" | "dataDir">,
): Promise<Uint8Array> {
  if (config.encryptionSecret) {
    const digest = await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(config.encryptionSecret),
    );
    return new Uint8Array(digest);
  }
  const path = join(config.dataDir, KEY_FILE);
  try {
    const existing = fromBase64((await Deno.readTextFile(path)).trim());
    if (existing.length === 32) return existing;
    throw new Error(`${path} does not hold a 256-bit key`);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const fresh = crypto.getRandomValues(new Uint8Array(32));
  await Deno.mkdir(config.dataDir, { recursive: true });
  try {
    await Deno.writeTextFile(path, toBase64(fresh) + "\n", { createNew: true, mode: 0o600 });
    return fresh;
  } catch (err) {
    // Another process created it first: use theirs.
    if (err instanceof Deno.errors.AlreadyExists) {
      return fromBase64((await Deno.readTextFile(path)).trim());
    }
    throw err;
  }
}

export class SecretBox {
  private constructor(private key: CryptoKey) {}

  /** Loads (or creates) the key and returns a box. */
  static async open(config: Pick<Config, "encryptionSecret" | "dataDir">): Promise<SecretBox> {
    const raw = await loadKeyBytes(config);
    const key = await crypto.subtle.importKey("raw", raw as BufferSource, "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
    return new SecretBox(key);
  }

  /** Encrypts a UTF-8 string. */
  async seal(plain: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv },
      this.key,
      new TextEncoder().encode(plain),
    );
    return `v1:${toBase64(iv)}:${toBase64(new Uint8Array(ct))}`;
  }

  /** Decrypts a value made by seal(); throws when the key is wrong or the text was altered. */
  async open(sealed: string): Promise<string> {
    const [version, iv, ct] = sealed.split(":");
    if (version !== "v1" || !iv || !ct) throw new Error("Unknown secret format");
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(iv) as BufferSource },
      this.key,
      fromBase64(ct) as BufferSource,
    );
    return new TextDecoder().decode(plain);
  }
}

/** The plain text sealed under `["meta", "sealing_check"]` to prove a key. */
const CHECK_TEXT = "cubby sealing key check";

/**
 * Checks that `box` holds the key the stored secrets were sealed with, before anything is
 * served: every instance sharing a KV must read what another sealed. The first instance stores a
 * sealed check value; later ones must open it. A KV from before the check is proven with one of
 * its sealed values (`sealedSample`) instead. Throws with the reason when the key is wrong.
 */
export async function checkSealingKey(
  kv: Deno.Kv,
  box: SecretBox,
  sealedSample: () => Promise<string | null>,
): Promise<void> {
  const key = keys.meta("sealing_check");
  const opens = async (sealed: string) => {
    try {
      await box.open(sealed);
      return true;
    } catch {
      return false;
    }
  };
  const refuse = () =>
    new Error(
      "This instance's encryption key does not match the one that sealed the stored secrets " +
        "(storage credentials, kept replies). Every instance sharing a KV needs the same " +
        "ENCRYPTION_SECRET; a single instance uses DATA_DIR/secret.key, which must be the file " +
        "that was there when the secrets were stored.",
    );
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv.get<string>(key);
    if (entry.value !== null) {
      if (await box.open(entry.value).then((t) => t === CHECK_TEXT, () => false)) return;
      throw refuse();
    }
    const sample = await sealedSample();
    if (sample !== null && !await opens(sample)) throw refuse();
    const res = await kv.atomic().check(entry).set(key, await box.seal(CHECK_TEXT)).commit();
    if (res.ok) return;
  }
  throw new Error("The sealing key check kept changing under this instance");
}
