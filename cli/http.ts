/**
 * The command-line client's requests to a Cubby server: JSON calls that read the envelope
 * (`{code, message, error, data}`) and fail with the server's own message.
 */

import { LANGUAGE, text } from "./messages.ts";

/** A failed call: the server's error code and message, or the HTTP status. */
export class CliError extends Error {
  constructor(message: string, readonly code = "", readonly data: unknown = null) {
    super(message);
    this.name = "CliError";
  }
}

type Envelope<T> = { code: number; message?: string; error?: string; data: T };

/** Calls `path` (absolute URL) and returns the envelope's data; throws CliError. */
export async function callJson<T>(
  url: string,
  init: { method?: string; body?: unknown; apiKey?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "accept-language": LANGUAGE,
  };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.apiKey) headers.authorization = `ApiKey ${init.apiKey}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (err) {
    throw new CliError(
      text("unreachable", { origin: new URL(url).origin, reason: (err as Error).message }),
    );
  }
  return await envelopeOf<T>(res);
}

/** The data of an envelope reply; throws CliError with the server's message otherwise. */
export async function envelopeOf<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: Envelope<T> | null = null;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON: a proxy's page, say */ }
  if (res.ok && body) return body.data;
  const message = body?.message ?? `HTTP ${res.status} ${text.slice(0, 200)}`;
  throw new CliError(message, body?.error ?? String(res.status), body?.data ?? null);
}
