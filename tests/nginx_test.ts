/**
 * The nginx launcher in front of two upstreams, as it will stand in front of two Cubby
 * instances: round robin, Host and X-Forwarded-For, WebDAV methods, no body limit, and bodies
 * streamed both ways. With request buffering on, the upload test fails: nginx would wait for
 * the whole body before passing the request on.
 */
import assert from "node:assert/strict";
import { startNginx } from "./helpers/nginx.ts";
import { withDeadline } from "./helpers/wait.ts";

type Seen = { method: string; host: string | null; xff: string | null; path: string };

/** Two upstream servers that record what reached them and answer with their own name. */
function upstreams(handler?: (req: Request, name: string) => Promise<Response> | undefined) {
  const seen: Record<string, Seen[]> = { a: [], b: [] };
  const servers = (["a", "b"] as const).map((name) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const url = new URL(req.url);
      seen[name].push({
        method: req.method,
        host: req.headers.get("host"),
        xff: req.headers.get("x-forwarded-for"),
        path: url.pathname,
      });
      const custom = handler?.(req, name);
      if (custom) return await custom;
      await req.body?.cancel();
      return new Response(name, { headers: { "x-upstream": name } });
    })
  );
  return {
    seen,
    ports: servers.map((s) => s.addr.port),
    async [Symbol.asyncDispose]() {
      await Promise.all(servers.map((s) => s.shutdown()));
    },
  };
}

/** A GET written on a plain TCP connection, with headers fetch does not allow; the response. */
async function rawGet(port: number, path: string, headers: Record<string, string>) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const lines = [`GET ${path} HTTP/1.1`, "connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  await conn.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n"));
  return await new Response(conn.readable).text();
}

Deno.test("nginx: round robin, Host passthrough, X-Forwarded-For and WebDAV methods", async () => {
  await using up = upstreams();
  await using nginx = await startNginx({ upstreams: up.ports });
  const names: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${nginx.url}/api/version`);
    names.push(await res.text());
  }
  assert.deepEqual(names.toSorted(), ["a", "a", "b", "b"]);
  assert.notEqual(names[0], names[1], "consecutive requests go to different upstreams");
  assert.equal(up.seen.a[0].host, `127.0.0.1:${nginx.port}`);
  assert.equal(up.seen.a[0].xff, "127.0.0.1");

  // fetch cannot set Host, so this request is written by hand.
  const raw = await rawGet(nginx.port, "/host", {
    host: "cubby.example:8443",
    "x-forwarded-for": "203.0.113.9",
  });
  assert.match(raw, /^HTTP\/1\.1 200/);
  const hosted = [...up.seen.a, ...up.seen.b].find((s) => s.path === "/host")!;
  assert.equal(hosted.host, "cubby.example:8443");
  assert.equal(hosted.xff, "203.0.113.9, 127.0.0.1");

  for (const method of ["PROPFIND", "MKCOL", "MOVE", "COPY", "LOCK", "UNLOCK", "PROPPATCH"]) {
    const res = await fetch(`${nginx.url}/dav/x`, { method, headers: { depth: "1" } });
    assert.equal(res.status, 200, `${method} through nginx`);
    await res.body?.cancel();
  }
  const methods = [...up.seen.a, ...up.seen.b].map((s) => s.method);
  assert.ok(methods.includes("PROPFIND") && methods.includes("UNLOCK"));
  assert.match(await nginx.accessLog(), /PROPFIND \/dav\/x HTTP\/1\.1 200 127\.0\.0\.1:\d+/);
});

Deno.test("nginx: an upload streams to the upstream before the client has sent it all", async () => {
  const headersArrived = Promise.withResolvers<void>();
  let received = 0;
  await using up = upstreams(async (req) => {
    headersArrived.resolve();
    for await (const chunk of req.body!) received += chunk.length;
    return new Response(String(received));
  });
  await using nginx = await startNginx({ upstreams: up.ports });
  const chunk = new Uint8Array(1024 * 1024);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      // After the first MiB, hold the rest until the upstream has the request: a buffering
      // proxy would wait for the whole body first, and this upload would never finish.
      if (sent === 1) {
        await withDeadline(
          headersArrived.promise,
          20_000,
          "the upstream did not get the request while its body was held",
        );
      }
      if (sent === 64) return c.close();
      sent++;
      c.enqueue(chunk);
    },
  });
  // 64 MiB is past any default client_max_body_size (1 MiB), so this also checks the limit is off.
  const res = await fetch(`${nginx.url}/upload`, { method: "PUT", body });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), String(64 * 1024 * 1024));
});

Deno.test("nginx: a download streams to the client before the upstream has sent it all", async () => {
  const clientGotFirst = Promise.withResolvers<void>();
  await using up = upstreams(() => {
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (n === 1) await clientGotFirst.promise;
        if (n === 3) return c.close();
        n++;
        c.enqueue(new TextEncoder().encode(`part ${n}\n`));
      },
    });
    return Promise.resolve(new Response(body));
  });
  await using nginx = await startNginx({ upstreams: up.ports });
  const res = await fetch(`${nginx.url}/download`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const first = await reader.read();
  assert.equal(first.value, "part 1\n");
  clientGotFirst.resolve();
  let rest = "";
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value;
  assert.equal(rest, "part 2\npart 3\n");
});
