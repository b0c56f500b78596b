/** The ceiling for bench/http.ts: a bare Deno.serve hello-world on 127.0.0.1 (port 0). */
Deno.serve({
  hostname: "127.0.0.1",
  port: Number(Deno.env.get("PORT") ?? 0),
  onListen: ({ hostname, port }) => console.log(`hello listening on http://${hostname}:${port}`),
}, () => new Response("Hello, world!\n", { headers: { "content-type": "text/plain" } }));
