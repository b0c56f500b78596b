/**
 * Starts Debian's nginx as a load balancer in front of several Cubby instances, as a deployment
 * would: round robin over the upstream ports, Host passed through, X-Forwarded-For appended,
 * no body size limit, and request and response bodies streamed both ways (not buffered), so a
 * large upload reaches an instance while it is still being sent. nginx proxies any method, so
 * WebDAV's (PROPFIND, MKCOL, MOVE, LOCK, ...) pass through.
 *
 * Everything nginx writes (config, pid, logs, temp files) is in a temporary prefix directory;
 * it runs in the foreground as the current user and stops with `await using`.
 *
 * Only `node:` built-ins, so that Playwright's setup can import it too.
 */
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { freePort, startEngineIn } from "./engine_process.ts";
import { requireEngine } from "./engines.ts";

export type NginxHandle = {
  /** e.g. `http://127.0.0.1:41234`, without a trailing slash. */
  url: string;
  port: number;
  /** The generated nginx.conf. */
  confPath: string;
  /** nginx's access log so far: `$request $status $upstream_addr` per line. */
  accessLog(): Promise<string>;
  /** nginx's error log so far. */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

export type NginxOptions = {
  /** Upstream ports on 127.0.0.1 (or `host:port`), balanced round robin. */
  upstreams: (number | string)[];
};

const READY_PATH = "/.nginx-ready";

/** The nginx.conf for a prefix directory, a listen port and upstreams. */
export function nginxConfig(prefix: string, port: number, upstreams: (number | string)[]): string {
  const servers = upstreams
    .map((u) => `    server ${typeof u === "number" ? `127.0.0.1:${u}` : u} max_fails=0;`)
    .join("\n");
  // As root, nginx would hand its workers to "nobody", who cannot read the private prefix.
  const user = process.getuid?.() === 0 ? `user ${userInfo().username};\n` : "";
  return `${user}daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  log_format upstream '$request $status $upstream_addr';
  access_log ${prefix}/access.log upstream;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
  upstream cubby {
${servers}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 0;
    # Answered by nginx itself, so the readiness probe never reaches (or counts at) an upstream.
    location = ${READY_PATH} { access_log off; return 204; }
    location / {
      proxy_pass http://cubby;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_redirect off;
      proxy_request_buffering off;
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
    }
  }
}
`;
}

/** Starts nginx on a free 127.0.0.1 port; ready once it answers its own readiness path. */
export async function startNginx(options: NginxOptions): Promise<NginxHandle> {
  if (options.upstreams.length === 0) throw new Error("startNginx needs at least one upstream");
  const bin = requireEngine("nginx");
  const prefix = await mkdtemp(join(tmpdir(), "cubby-nginx-"));
  await mkdir(join(prefix, "temp"));
  const port = await freePort();
  const confPath = join(prefix, "nginx.conf");
  await writeFile(confPath, nginxConfig(prefix, port, options.upstreams));
  const url = `http://127.0.0.1:${port}`;
  const errorLog = () => readFile(join(prefix, "error.log"), "utf8").catch(() => "");
  const engine = await startEngineIn(
    prefix,
    {
      name: "nginx",
      bin,
      // -e: the error log before the config is read (the default is under /var/log).
      args: ["-p", prefix, "-c", confPath, "-e", join(prefix, "error.log")],
      ready: async () => {
        const res = await fetch(url + READY_PATH);
        await res.body?.cancel();
        return res.status === 204;
      },
    },
    async () => `error.log:\n${await errorLog()}`,
  );
  const handle: NginxHandle = {
    url,
    port,
    confPath,
    accessLog: () => readFile(join(prefix, "access.log"), "utf8").catch(() => ""),
    errorLog,
    // SIGTERM is nginx's fast shutdown: open connections are closed, not drained.
    stop: () => engine.stop(),
    [Symbol.asyncDispose]: () => handle.stop(),
  };
  return handle;
}
