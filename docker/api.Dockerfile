# Palisade control plane: API + built console. Build from the repository root:
#   docker build -f docker/api.Dockerfile -t palisade .
FROM node:20-bookworm-slim AS build
WORKDIR /src
ENV TURBO_TELEMETRY_DISABLED=1 CI=true
RUN npm install -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile \
 && pnpm exec turbo run build --filter=@palisade/api --filter=@palisade/web \
 && pnpm --filter @palisade/api deploy --prod --legacy /out \
 && cp -r apps/web/dist /out/web-dist

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /out /app
ENV NODE_ENV=production PORT=8000 HOST=0.0.0.0 DATA_DIR=/data WEB_DIST=/app/web-dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:8000/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "dist/main.js"]
