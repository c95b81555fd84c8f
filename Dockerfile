# syntax=docker/dockerfile:1
# Agent Platform's container image (docs/operating.md, "Containers"). Two targets:
#   slim (the default): the server (ROLE=all|api|worker), the console at /console, the API reference at /docs, and the
#       embedded PostgreSQL for a one-container trial. Runs as the unprivileged user 10001.
#   full: slim + Chromium, bubblewrap and socat, for the `browser` tool (and code execution, which also needs root);
#       see docs/operating.md for the runtime flags they need.
#
#   docker build -t agent-platform .                          docker build --target full -t agent-platform:full .
#
# Behind a mirror, point the two package sources elsewhere (the defaults are Debian's and npm's public ones):
#   --build-arg DEBIAN_MIRROR=http://mirror.example/debian --build-arg DEBIAN_SECURITY_MIRROR=… --build-arg NPM_REGISTRY=…

ARG BASE_IMAGE=debian:trixie-slim

# Node.js 20 from Debian (trixie ships 20.19, which package.json's engines accept), tini as PID 1 (it forwards SIGTERM
# and reaps the processes the server starts: embedded PostgreSQL, sandboxes, Chromium).
FROM ${BASE_IMAGE} AS node
ARG DEBIAN_MIRROR=http://deb.debian.org/debian
ARG DEBIAN_SECURITY_MIRROR=http://deb.debian.org/debian-security
RUN set -eu; \
    for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do \
      [ -f "$f" ] && sed -i -e "s|http://deb.debian.org/debian-security|${DEBIAN_SECURITY_MIRROR}|g" \
        -e "s|http://deb.debian.org/debian|${DEBIAN_MIRROR}|g" "$f"; \
    done; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs ca-certificates tini; \
    apt-get clean; \
    rm -rf /var/lib/apt/lists/* /var/cache/apt/* /usr/share/doc/* /usr/share/man/*; \
    node --version

# The workspace, built as `pnpm start` builds it, then deployed with production dependencies only.
FROM node AS build
ARG NPM_REGISTRY=https://registry.npmjs.org/
ENV COREPACK_INTEGRITY_KEYS=0 \
    COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    npm_config_registry=${NPM_REGISTRY} \
    TURBO_TELEMETRY_DISABLED=1 \
    CI=true
WORKDIR /src
# The lockfile alone decides what is downloaded, into a package store that is a build cache (kept between builds, never
# in the image). Behind a TLS-intercepting proxy, pass its CA certificates as the build secret `ca` (docker build
# --secret id=ca,src=/path/to/ca.pem): they are used for the downloads only and are not part of the image.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
ENV npm_config_store_dir=/pnpm-store
RUN --mount=type=secret,id=ca,target=/run/secrets/ca.pem --mount=type=cache,id=agent-platform-pnpm,target=/pnpm-store \
    if [ -s /run/secrets/ca.pem ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca.pem; fi; \
    export COREPACK_NPM_REGISTRY="${NPM_REGISTRY%/}"; \
    corepack enable pnpm && pnpm --version && pnpm fetch
COPY . .
RUN --mount=type=cache,id=agent-platform-pnpm,target=/pnpm-store \
    pnpm install --frozen-lockfile --offline \
 && pnpm exec turbo run build --filter=@agent-platform/server... --filter=!@agent-platform/sdk
# The server with its production dependencies only (pnpm reads the packages' metadata from the registry again), less
# what it never loads (scripts/prune-deployed.mjs), and the migrations.
RUN --mount=type=secret,id=ca,target=/run/secrets/ca.pem --mount=type=cache,id=agent-platform-pnpm,target=/pnpm-store \
    if [ -s /run/secrets/ca.pem ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca.pem; fi; \
    pnpm --filter @agent-platform/server deploy --prod --legacy /deploy \
 && node scripts/prune-deployed.mjs /deploy \
 && mkdir /out \
 && mv /deploy/dist /deploy/node_modules /deploy/package.json /out/ \
 && cp -r prisma /out/prisma \
 && cp deploy/healthcheck.mjs /out/healthcheck.mjs

FROM node AS slim
ARG APP_UID=10001
RUN groupadd --gid "${APP_UID}" agent-platform \
 && useradd --uid "${APP_UID}" --gid agent-platform --no-create-home --home-dir /data --shell /usr/sbin/nologin agent-platform \
 && mkdir -p /data && chown agent-platform:agent-platform /data && chmod 0700 /data
WORKDIR /app
# Owned by root and read-only for the server: only DATA_DIR (and the temporary folder) is written. /data is not declared
# a VOLUME (which would make an anonymous volume nobody names): mount one there to keep a trial's embedded database.
COPY --from=build /out /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    PRISMA_DIR=/app/prisma
EXPOSE 3000
USER agent-platform
# /healthz answers while the process is up; a ROLE=worker process serves no HTTP and counts as healthy while it runs.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "/app/healthcheck.mjs"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "/app/dist/main.js"]

# The browser tool's Chromium inside a bubblewrap boundary (socat bridges its egress proxy), and what code execution
# uses from the host's /usr. The runtime flags they need are in docs/operating.md ("The full image").
FROM slim AS full
USER root
RUN set -eu; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      chromium bubblewrap socat util-linux curl python3 fonts-liberation; \
    apt-get clean; \
    rm -rf /var/lib/apt/lists/* /var/cache/apt/* /usr/share/doc/* /usr/share/man/*; \
    chromium --version
USER agent-platform

# The default target.
FROM slim
