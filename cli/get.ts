/**
 * `get` and `decrypt`: fetch an end-to-end encrypted share by its link (key in the fragment)
 * and decrypt it to a file or standard output, streaming, so memory stays constant at any size
 * (docs/E2E.md). Opening counts one view, like the browser does. A file that fails to decrypt
 * part way is deleted: no partial plaintext is left behind (on standard output the command can
 * only stop and fail).
 */
import { parseLinkKey, type ShareSecret, shareSecret } from "../shared/e2e/keys.ts";
import { accessToken } from "../shared/e2e/keys.ts";
import { decryptMeta, decryptText } from "../shared/e2e/payloads.ts";
import { decryptStream, E2EError } from "../shared/e2e/stream.ts";
import type { E2EDescriptor } from "../shared/e2e/descriptor.ts";
import { callJson, CliError } from "./http.ts";
import { text } from "./messages.ts";

export type GetOptions = {
  link: string;
  /** A path, "-" for standard output, or undefined: the share's own name in this directory. */
  output?: string;
  force: boolean;
  /** Asked only when the share mixes a password into its key. */
  password: () => Promise<string>;
};

/** What a link names: its server, kind, slug and key. */
export function parseLink(link: string) {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new CliError(text("notALink", { link }));
  }
  const m = url.pathname.match(/^\/(paste|file)\/([A-Za-z0-9_-]+)\/?$/);
  if (!m) throw new CliError(text("notAShareLink"));
  if (url.hash.length <= 1) throw new CliError(text("noKey"));
  const key = parseLinkKey(url.hash);
  if (!key) throw new CliError(text("badKey"));
  return { origin: url.origin, kind: m[1] as "paste" | "file", slug: m[2], key };
}

/** The share's descriptor from its locked answer; throws when it is not encrypted. */
async function descriptorOf(url: string): Promise<E2EDescriptor> {
  try {
    await callJson(url);
  } catch (err) {
    const e2e = (err as CliError).data as { e2e?: E2EDescriptor } | null;
    if (err instanceof CliError && err.code === "password_required" && e2e?.e2e) return e2e.e2e;
    throw err;
  }
  throw new CliError(text("notEncrypted"));
}

/** Opens with the access token: a refused one is a wrong key or password. */
async function unlock<T>(url: string, secret: ShareSecret, e2e: E2EDescriptor): Promise<T> {
  try {
    return await callJson<T>(url, { body: { password: await accessToken(secret) } });
  } catch (err) {
    if (err instanceof CliError && err.code === "wrong_password") {
      throw new CliError(text(e2e.has_password ? "wrongPassword" : "wrongKey"));
    }
    throw err;
  }
}

/** Where plaintext goes: a new file (deleted on failure) or standard output. */
async function openOutput(path: string, force: boolean) {
  if (path === "-") return { writable: Deno.stdout.writable, discard: () => Promise.resolve() };
  const file = await Deno.open(path, {
    write: true,
    create: true,
    truncate: force,
    createNew: !force,
  })
    .catch((err) => {
      throw new CliError(
        err instanceof Deno.errors.AlreadyExists ? text("exists", { path }) : String(err),
      );
    });
  return { writable: file.writable, discard: () => Deno.remove(path).catch(() => {}) };
}

/** Decrypts `sealed` into `output`; a damaged stream deletes what was written. */
async function decryptTo(
  sealed: ReadableStream<Uint8Array>,
  secret: ShareSecret,
  output: string,
  force: boolean,
) {
  const out = await openOutput(output, force);
  try {
    await sealed.pipeThrough(decryptStream(secret)).pipeTo(out.writable);
  } catch (err) {
    await out.discard();
    if (err instanceof E2EError) {
      throw new CliError(text(err.reason === "version" ? "newerFormat" : "damaged"));
    }
    throw err;
  }
}

/** Fetches and decrypts a share; resolves with where the plaintext went. Throws CliError. */
export async function get(o: GetOptions): Promise<string> {
  const link = parseLink(o.link);
  const api = `${link.origin}/api`;
  const path = link.kind === "paste" ? `/paste/${link.slug}` : `/public/files/${link.slug}`;
  const e2e = await descriptorOf(api + path);
  const secret = await shareSecret(link.key, e2e.has_password ? await o.password() : null);
  if (link.kind === "paste") {
    const paste = await unlock<{ content: string }>(api + path, secret, e2e);
    const plain = await decryptText(secret, paste.content).catch(() => {
      throw new CliError(text("damaged"));
    });
    const bytes = new TextEncoder().encode(plain);
    await decryptless(bytes, o.output ?? "-", o.force);
    return o.output ?? "-";
  }
  const file = await unlock<{ download_url: string; e2e?: E2EDescriptor }>(
    `${api}${path}/verify`,
    secret,
    e2e,
  );
  const meta = await decryptMeta(secret, file.e2e?.meta ?? "").catch(() => {
    throw new CliError(text("damaged"));
  });
  // The sender chose the name: keep only its last segment, in this directory.
  const output = o.output ?? (meta.name.split(/[\\/]/).pop()?.replace(/^\.+/, "") || "download");
  const res = await fetch(new URL(file.download_url, link.origin));
  if (!res.ok || !res.body) throw new CliError(text("downloadFailed", { status: res.status }));
  await decryptTo(res.body, secret, output, o.force);
  return output;
}

/** Writes bytes already decrypted (a text share) to a file or standard output. */
async function decryptless(bytes: Uint8Array, output: string, force: boolean) {
  const out = await openOutput(output, force);
  await ReadableStream.from([bytes]).pipeTo(out.writable);
}

/** `decrypt`: decrypts a ciphertext stream (standard input) with a key, to standard output. */
export async function decrypt(key: string, password: string | null): Promise<void> {
  const linkKey = parseLinkKey(key.includes("#") ? key.slice(key.indexOf("#")) : key);
  if (!linkKey) throw new CliError(text("badKeyArg"));
  await decryptTo(Deno.stdin.readable, await shareSecret(linkKey, password), "-", false);
}
