/**
 * The floor of a small-file WebDAV PUT in Deno, for bench/webdav_many.ts: a bare Deno.serve
 * that stores each PUT's body the way Cubby's local driver does (a new temp file, the body
 * written to it, `fdatasync`, a rename into place) and nothing else: no login, no search index,
 * no lock, no check that the path stays inside its root, no ETag. It answers 201, or 204 for
 * OPTIONS. Measured with the same client as Cubby and rclone, it shows how much of the gap to
 * rclone (which does not fsync) is the durable write in Deno itself, and how much is Cubby's.
 *
 *   DIR=/tmp/x deno run -A bench/dav_floor.ts
 */
import { join } from "node:path";

const dir = Deno.env.get("DIR") ?? "";
if (dir === "") throw new Error("DIR must name the folder to write into");
const tmpDir = join(dir, ".tmp");
await Deno.mkdir(tmpDir, { recursive: true });
let next = 0;

async function put(req: Request, path: string): Promise<Response> {
  const tmp = join(tmpDir, `${Deno.pid}-${next++}.tmp`);
  const file = await Deno.open(tmp, { write: true, createNew: true });
  try {
    if (req.body) {
      for await (const chunk of req.body) {
        for (let off = 0; off < chunk.length;) off += await file.write(chunk.subarray(off));
      }
    }
    await file.syncData();
  } finally {
    file.close();
  }
  await Deno.rename(tmp, join(dir, decodeURIComponent(path)));
  return new Response(null, { status: 201 });
}

Deno.serve({
  hostname: "127.0.0.1",
  port: Number(Deno.env.get("PORT") ?? 0),
  onListen: ({ hostname, port }) =>
    console.log(`dav floor listening on http://${hostname}:${port}`),
}, (req) => {
  const path = new URL(req.url).pathname;
  if (req.method === "PUT") return put(req, path);
  return new Response(null, { status: 204 });
});
