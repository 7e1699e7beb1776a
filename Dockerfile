# syntax=docker/dockerfile:1
# One image for every process of the suite; its first argument picks the process (docker/entrypoint.sh):
#   gateway | content | identity | search | discussion | config | embedded
#   reindex | events-replay <group>... | migrate | probe <host:port>
# scripts/check-dockerfile.mjs runs these RUN steps in a scratch copy of the repository (no Docker engine in CI).
# The current Node LTS (`npm run test:lts` runs the tests on the same version: scripts/node-lts.mjs).
ARG NODE_IMAGE=node:26.10.0-bookworm-slim

# --- build: install from the lockfile with the pinned pnpm, compile, then drop the dev dependencies ---
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Corepack's signature check needs keys a registry mirror may not serve; the lockfile pins every integrity anyway.
ENV CI=true COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_INTEGRITY_KEYS=0
# Manifests first, so the install layer is reused while only sources change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
# Fixes to dependencies that pnpm applies at install (package.json, pnpm.patchedDependencies).
COPY patches patches
COPY gateway/package.json gateway/
COPY services/shared/package.json services/shared/
COPY services/content/package.json services/content/
COPY services/identity/package.json services/identity/
COPY services/search/package.json services/search/
COPY services/discussion/package.json services/discussion/
COPY services/config/package.json services/config/
COPY services/embedded/package.json services/embedded/
RUN corepack pnpm install --frozen-lockfile
COPY tsconfig.base.json tsconfig.json ./
COPY proto proto
COPY scripts scripts
COPY gateway gateway
COPY services services
COPY docker docker
RUN node scripts/ensure.mjs && chmod 0755 docker/entrypoint.sh
# The prune: a production-only install from the store the first install filled (`pnpm prune --prod` empties the
# workspace packages' own node_modules in pnpm 9, and leaves dev packages in node_modules/.pnpm).
RUN rm -rf node_modules gateway/node_modules services/*/node_modules && corepack pnpm install --prod --frozen-lockfile --offline
# Compiler outputs that only the build needs.
RUN find gateway services -name '*.tsbuildinfo' -delete && rm -rf scripts services/*/test services/*/src gateway/src

# --- runtime: the built workspace only, as a non-root user, on a read-only root file system ---
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8080 \
    METRICS_PORT=9464
WORKDIR /app
# `node` (uid 1000) comes with the base image; nothing under /app is writable by it.
COPY --from=build --chown=root:root /app /app
# The only writable place: the embedded store and blobs without STORE_URL (a volume in compose and Helm).
RUN mkdir -p /data && chown node:node /data && chmod 0750 /data
VOLUME ["/data"]
USER node
# 8080 gateway HTTP; 50051-50055 content, identity, search, discussion, config gRPC; 9464 /metrics (planned).
EXPOSE 8080 50051 50052 50053 50054 50055 9464
# The entrypoint execs node, so node is PID 1 and gets SIGTERM itself: every process installs its own handler
# (services/shared/src/runtime/lifecycle.ts) that drains before exit, and reaps its own children (gateway workers).
ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["help"]
