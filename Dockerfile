# Cubby: one Deno process serving the API, the share pages, the client and WebDAV.
#   docker build -t cubby .
#   docker run -d -p 8787:8787 -v cubby-data:/data --name cubby cubby
#   docker logs cubby    # the generated admin password, on the first start (or set ADMIN_PASSWORD)

# --- build: dependencies from the lockfile, then the client bundle ----------------------------
FROM denoland/deno:2.9.6 AS build
WORKDIR /app
# Dependencies first, so that source edits do not invalidate this layer.
COPY deno.json deno.lock ./
RUN deno install --frozen
COPY . .
RUN deno run -A scripts/build.ts

# --- runtime: sources the server imports, node_modules and the built client -------------------
FROM denoland/deno:2.9.6
WORKDIR /app
ENV DATA_DIR=/data \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    NO_COLOR=1
# Deno locks node_modules/.deno and writes its caches to DENO_DIR at run time: both belong to
# the unprivileged user the server runs as.
COPY --from=build --chown=deno:deno /app/deno.json /app/deno.lock /app/main.ts ./
COPY --from=build --chown=deno:deno /app/node_modules ./node_modules
COPY --from=build --chown=deno:deno /app/server ./server
COPY --from=build --chown=deno:deno /app/shared ./shared
COPY --from=build --chown=deno:deno /app/client ./client
COPY --from=build --chown=deno:deno /app/dist ./dist
RUN mkdir -p /data "${DENO_DIR:-/deno-dir}" && chown deno:deno /data "${DENO_DIR:-/deno-dir}"
USER deno
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD ["deno", "eval", "const r = await fetch(`http://127.0.0.1:${Deno.env.get('PORT') || 8787}/api/health`); Deno.exit(r.ok ? 0 : 1)"]
# The image's entrypoint runs `deno` with these arguments; nothing is fetched at run time.
CMD ["run", "-A", "--cached-only", "main.ts"]
