/**
 * A small client of the V8 inspector protocol (the Chrome DevTools protocol) of a process started
 * with `--inspect=127.0.0.1:PORT`: evaluate an expression in it, force a garbage collection, and
 * take a heap snapshot (the JSON that DevTools' Memory tab reads).
 */

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** A connection to one inspected process. */
export class Inspector {
  #ws: WebSocket;
  #id = 0;
  #pending = new Map<number, Pending>();
  #listeners = new Map<string, (params: Record<string, unknown>) => void>();

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data as string);
      if (msg.id !== undefined) {
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(`${msg.error.message} (${msg.error.code})`));
        else p?.resolve(msg.result);
      } else {
        this.#listeners.get(msg.method)?.(msg.params);
      }
    };
    ws.onclose = () => {
      for (const p of this.#pending.values()) p.reject(new Error("inspector connection closed"));
      this.#pending.clear();
    };
  }

  /** Connects to the first target of the inspector listening on 127.0.0.1:`port`. */
  static async connect(port: number): Promise<Inspector> {
    const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`cannot connect to the inspector on ${port}`));
    });
    const inspector = new Inspector(ws);
    await inspector.send("Runtime.enable");
    // A process started with --inspect may wait for a debugger before it runs on; let it go.
    await inspector.send("Runtime.runIfWaitingForDebugger");
    return inspector;
  }

  /** Sends one command; resolves with its result. */
  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#id;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Evaluates `expression` (awaiting a promise) in the process; returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const res = await this.send("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
    }) as { result: { value: T }; exceptionDetails?: { text: string } };
    if (res.exceptionDetails) throw new Error(`${expression}: ${res.exceptionDetails.text}`);
    return res.result.value;
  }

  /** Runs a full garbage collection in the process. */
  async collectGarbage(): Promise<void> {
    await this.send("HeapProfiler.enable");
    await this.send("HeapProfiler.collectGarbage");
  }

  /** Takes a heap snapshot (after a garbage collection); returns its JSON text. */
  async heapSnapshot(): Promise<string> {
    const chunks: string[] = [];
    this.#listeners.set("HeapProfiler.addHeapSnapshotChunk", (p) => chunks.push(p.chunk as string));
    await this.send("HeapProfiler.enable");
    await this.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    this.#listeners.delete("HeapProfiler.addHeapSnapshotChunk");
    return chunks.join("");
  }

  /** Closes the connection (the process runs on). */
  close(): void {
    this.#ws.close();
  }
}

/** A free TCP port on 127.0.0.1 (for --inspect, which needs one given up front). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
