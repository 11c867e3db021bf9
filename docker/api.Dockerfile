# Palisade control plane: API + built console. Build from the repository root:
#   docker build -f docker/api.Dockerfile -t palisade .
# docker/compose.yaml runs it with PostgreSQL (docs/install.md, "Docker Compose").
#
# Base images are pinned to a full version (the Node.js release the test suite runs on, Debian
# 12 "bookworm"); there is no digest because the tag is what the project can check without
# Docker Hub. Bump it deliberately, with the Node.js version in docs/install.md.
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /src
ENV TURBO_TELEMETRY_DISABLED=1 CI=true
RUN npm install -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile \
 && pnpm exec turbo run build --filter=@palisade/api --filter=@palisade/web \
 && pnpm --filter @palisade/api deploy --prod --legacy /out \
 && cp -r apps/web/dist /out/web-dist

FROM node:20.20.2-bookworm-slim
WORKDIR /app
COPY --from=build /out /app
ENV NODE_ENV=production PORT=8000 GRPC_PORT=50055 HOST=0.0.0.0 DATA_DIR=/data WEB_DIST=/app/web-dist
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
# The image's unprivileged user (uid 1000); it owns only /data.
USER node
VOLUME ["/data"]
# 8000: HTTP (console, REST API, /metrics); 50055: the gateways' gRPC (GRPC_PORT).
EXPOSE 8000 50055
# Readiness: 503 while the database does not answer or migrations run (docs/operations.md).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/api/v1/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "dist/main.js"]
