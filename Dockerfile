# Cubby: one Deno process serving the API, the share pages, the client and WebDAV.
#   docker build -t cubby .
#   docker run -d -p 8787:8787 -v cubby-data:/data --name cubby cubby
#   docker logs cubby    # the generated admin password, on the first start (or set ADMIN_PASSWORD)

# --- build: dependencies from the lockfile, then the client and the server bundles ------------
FROM denoland/deno:2.9.6 AS build
WORKDIR /app
# Dependencies first, so that source edits do not invalidate this layer.
COPY deno.json deno.lock ./
RUN deno install --frozen
COPY . .
RUN deno run -A scripts/build.ts && deno run -A scripts/bundle_server.ts

# --- runtime: the server bundle (it holds every package it uses) and the built client --------
FROM denoland/deno:2.9.6
WORKDIR /app
ENV DATA_DIR=/data \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    NO_COLOR=1
COPY --from=build --chown=deno:deno /app/dist ./dist
COPY --from=build --chown=deno:deno /app/dist-server ./dist-server
RUN mkdir -p /data "${DENO_DIR:-/deno-dir}" && chown deno:deno /data "${DENO_DIR:-/deno-dir}"
USER deno
# Deno writes its analysis of a module's imports to DENO_DIR on the first run; made here, so the
# server does not analyse its 3 MB bundle itself and keep the memory that takes.
RUN deno cache --unstable-kv --unstable-cron dist-server/main_bundle.js
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD ["deno", "eval", "const r = await fetch(`http://127.0.0.1:${Deno.env.get('PORT') || 8787}/api/health`); Deno.exit(r.ok ? 0 : 1)"]
# The image's entrypoint runs `deno` with these arguments; nothing is fetched at run time.
CMD ["run", "-A", "--unstable-kv", "--unstable-cron", "--cached-only", "dist-server/main_bundle.js"]
