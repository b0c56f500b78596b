/**
 * `send`: encrypts a file or standard input end to end and uploads it with an API key, then
 * prints the link with the key in its fragment (docs/E2E.md). A file share streams: the bytes
 * are read, encrypted record by record and sent as one raw PUT /api/upload-direct body, so
 * memory stays constant at any size (the server streams it on to local or S3 storage). With
 * `--text` the input becomes a text share (at most 10 MB).
 */
import { contentTypeFor } from "../shared/mime.ts";
import { MAX_PASTE_BYTES } from "../shared/constants.ts";
import { readCapped } from "../shared/read_capped.ts";
import {
  accessToken,
  E2E_VERSION,
  encodeLinkKey,
  newLinkKey,
  shareSecret,
} from "../shared/e2e/keys.ts";
import { encryptMeta, encryptText } from "../shared/e2e/payloads.ts";
import { ciphertextSize, encryptStream, makeHeader } from "../shared/e2e/stream.ts";
import { E2E_STORED_NAME } from "../shared/e2e/descriptor.ts";
import { callJson, CliError, envelopeOf } from "./http.ts";
import { LANGUAGE, text } from "./messages.ts";

export type SendOptions = {
  server: string;
  apiKey: string;
  /** A path, or "-" for standard input. */
  input: string;
  name?: string;
  type?: string;
  password: string | null;
  text: boolean;
  expiresHours?: number;
  maxViews?: number;
  remark?: string;
};

/** The bytes to send and what is known of them. */
async function openInput(input: string) {
  if (input === "-") return { stream: Deno.stdin.readable, size: undefined, name: "stdin" };
  const file = await Deno.open(input, { read: true });
  const info = await file.stat();
  if (!info.isFile) {
    file.close();
    throw new CliError(text("notAFile", { path: input }));
  }
  return { stream: file.readable, size: info.size, name: input.split(/[\\/]/).pop() || "file" };
}

/** Encrypts and uploads; resolves with the share's link, key included. Throws CliError. */
export async function send(o: SendOptions): Promise<string> {
  const key = newLinkKey();
  const secret = await shareSecret(key, o.password);
  const token = await accessToken(secret);
  const input = await openInput(o.input);
  const fragment = `#${encodeLinkKey(key)}`;
  const shared = {
    password: token,
    remark: o.remark,
    max_views: o.maxViews,
  };
  if (o.text) {
    const bytes = await readCapped(
      input.stream,
      MAX_PASTE_BYTES,
      () => new CliError(text("textTooLarge", { max: MAX_PASTE_BYTES })),
    );
    let plain: string;
    try {
      plain = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new CliError(text("textNotUtf8"));
    }
    const expiresAt = o.expiresHours
      ? new Date(Date.now() + o.expiresHours * 3_600_000).toISOString()
      : undefined;
    const view = await callJson<{ url: string }>(`${o.server}/api/paste`, {
      apiKey: o.apiKey,
      body: {
        ...shared,
        content: await encryptText(secret, plain),
        expires_at: expiresAt,
        e2e: { version: E2E_VERSION, has_password: o.password !== null },
      },
    });
    return new URL(view.url, o.server).href + fragment;
  }
  const name = o.name ?? input.name;
  const meta = await encryptMeta(secret, { name, type: contentTypeFor(name, o.type) });
  const query = new URLSearchParams({
    e2e: JSON.stringify({ version: E2E_VERSION, has_password: o.password !== null, meta }),
  });
  for (const [k, v] of Object.entries({ ...shared, expires_in: o.expiresHours })) {
    if (v !== undefined) query.set(k, String(v));
  }
  const headers: Record<string, string> = {
    authorization: `ApiKey ${o.apiKey}`,
    accept: "application/json",
    "accept-language": LANGUAGE,
    "content-type": "application/octet-stream",
  };
  // A known size lets the server refuse an upload over its limits before any byte is sent.
  if (input.size !== undefined) headers["content-length"] = String(ciphertextSize(input.size));
  let res: Response;
  try {
    res = await fetch(`${o.server}/api/upload-direct/${E2E_STORED_NAME}?${query}`, {
      method: "PUT",
      headers,
      body: input.stream.pipeThrough(encryptStream(secret, makeHeader())),
      // Node's fetch wants to be told a streamed body is sent while the answer waits.
      duplex: "half",
    } as RequestInit);
  } catch (err) {
    throw new CliError(text("uploadFailed", { reason: (err as Error).message }));
  }
  const view = await envelopeOf<{ url: string }>(res);
  return new URL(view.url, o.server).href + fragment;
}
