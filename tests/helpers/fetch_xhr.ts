/**
 * The browser's XMLHttpRequest, as far as the client's uploader uses it, over fetch: Deno has no
 * XHR, and the uploader's engine sends its parts through one (client/lib/upload/xhr.ts). Upload
 * progress is one event when the body has gone; relative URLs resolve against `location`, which a
 * test sets to the server's origin, as a page served by it would have. `counts` tallies the
 * requests per method and the most sent at once, for tests that check the engine's pacing.
 */

type Handler = ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;

/** Requests sent through the stand-in, per method, and the most in flight at once. */
export const counts = { byMethod: new Map<string, number>(), inFlight: 0, maxInFlight: 0 };

/** An XMLHttpRequest stand-in over fetch (only what client/lib/upload/xhr.ts uses). */
export class FetchXhr {
  status = 0;
  responseType: "" | "blob" | "text" = "";
  responseText = "";
  response: unknown = null;
  upload: { onprogress: Handler; onload: (() => void) | null } = { onprogress: null, onload: null };
  onprogress: Handler = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  #method = "GET";
  #url = "";
  #headers = new Headers();
  #answer: Headers | null = null;
  #ctrl = new AbortController();

  open(method: string, url: string): void {
    this.#method = method;
    this.#url = new URL(url, globalThis.location?.href).href;
  }

  setRequestHeader(name: string, value: string): void {
    this.#headers.set(name, value);
  }

  getResponseHeader(name: string): string | null {
    return this.#answer?.get(name) ?? null;
  }

  abort(): void {
    this.#ctrl.abort();
  }

  send(body: BodyInit | null): void {
    counts.byMethod.set(this.#method, (counts.byMethod.get(this.#method) ?? 0) + 1);
    counts.maxInFlight = Math.max(counts.maxInFlight, ++counts.inFlight);
    void this.#run(body).finally(() => counts.inFlight--);
  }

  async #run(body: BodyInit | null): Promise<void> {
    const size = body instanceof Blob ? body.size : 0;
    let res: Response;
    try {
      res = await fetch(this.#url, {
        method: this.#method,
        headers: this.#headers,
        body,
        signal: this.#ctrl.signal,
      });
      this.upload.onprogress?.({ loaded: size, total: size, lengthComputable: true });
      this.upload.onload?.();
      this.#answer = res.headers;
      this.status = res.status;
      if (this.responseType === "blob") this.response = await res.blob();
      else this.responseText = await res.text();
    } catch {
      if (this.#ctrl.signal.aborted) this.onabort?.();
      else this.onerror?.();
      return;
    }
    this.onload?.();
  }
}
