# One image for every role: the API (`serve`), the worker pools (`worker --pools …`),
# `migrate`, the admin CLI and the stdio MCP server. It runs the JavaScript
# `npm run build` bundles into dist/; no TypeScript, no tsx, no dev dependency.
# See docs/deployment.md.
#
#   docker build -t codesynapse:0.1.0 .
#   podman build --format docker -t codesynapse:0.1.0 .   (podman's OCI default drops HEALTHCHECK)
#
# Behind a TLS-intercepting proxy, mount its CA bundle and name it for npm (the build
# stages only; nothing of it reaches the image):
#   podman build -v /etc/ssl/certs/ca-certificates.crt:/run/build-ca.crt:ro \
#     --build-arg NODE_EXTRA_CA_CERTS=/run/build-ca.crt -t codesynapse:0.1.0 .
ARG NODE_IMAGE=docker.io/library/node:24.22.3-bookworm-slim

# ---- production dependencies only (what the image ships in node_modules)
FROM ${NODE_IMAGE} AS deps
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The npm workspaces (clients/*): their manifests are part of the lockfile's install.
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --omit=dev --engine-strict --no-audit --no-fund && npm cache clean --force

# ---- the build: every dependency, the sources, `npm run build`
FROM ${NODE_IMAGE} AS build
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --engine-strict --no-audit --no-fund
COPY tsconfig.json ./
# @codesynapse/client (the stdio forwarder's HTTP calls): bundled into dist/ like our own code.
COPY clients ./clients
COPY scripts ./scripts
# scripts/build.mjs refuses an unsupported Node first, with the launcher's check (bin/supported-node.js).
COPY bin ./bin
COPY main ./main
COPY api ./api
COPY ops ./ops
COPY core ./core
COPY db ./db
COPY queues ./queues
COPY workers ./workers
RUN npm run build

# ---- the runtime
FROM ${NODE_IMAGE} AS runtime
# git: git-URL ingest clones with it; ca-certificates: https remotes; tini: PID 1 that reaps
# git's children and passes SIGTERM on to node (the graceful drain).
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates tini \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system --gid 10001 codesynapse \
  && useradd --system --uid 10001 --gid codesynapse --home-dir /home/codesynapse --create-home --shell /usr/sbin/nologin codesynapse \
  && install -d -o codesynapse -g codesynapse /data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY --from=build /app/dist ./dist
# The bundled embedding model (weights, tokenizer, licence, checksums), found beside dist/.
COPY models ./models
# HOST: listen beyond the container's loopback. CODESYNAPSE_DATA_DIR: the embedded database
# and uploads when no DATABASE_URL is set (mount a volume there).
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    HOST=0.0.0.0 \
    PORT=8080 \
    METRICS_PORT=9464 \
    CODESYNAPSE_DATA_DIR=/data
# Numeric, so Kubernetes' runAsNonRoot can verify it.
USER 10001:10001
EXPOSE 8080 9464
# GET /healthz on this container's server: PORT for the API, METRICS_PORT for a `worker`.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "dist/healthcheck.js"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "bin/codesynapse.js"]
CMD ["serve"]
