# Palisade gateway agent (`palisade-gateway`) with the WireGuard tooling it drives. Build from the
# repository root:
#   docker build -f docker/gateway.Dockerfile -t palisade/gateway .
# Run it in the host's network namespace (the WireGuard interface belongs to the host), with
# CAP_NET_ADMIN (links, addresses, peers, nftables), CAP_NET_RAW, and the TUN device for
# wireguard-go when the host kernel has no WireGuard module:
#   docker run -d --name palisade-gateway --restart unless-stopped --network host \
#     --cap-drop ALL --cap-add NET_ADMIN --cap-add NET_RAW --device /dev/net/tun \
#     -e GATEWAY_GRPC_URL=https://palisade.example.com:50055 -e GATEWAY_TOKEN=… palisade/gateway
# Arguments after the image name are flags of the agent (`docker run --rm palisade/gateway --help`).
# apps/gateway/README.md documents every setting.
FROM node:20-bookworm-slim AS build
WORKDIR /src
ENV TURBO_TELEMETRY_DISABLED=1 CI=true
RUN npm install -g pnpm@10.34.9
COPY . .
# The bundle (scripts/bundle-node-app.mjs) inlines the workspace packages; `deploy` adds the npm
# dependencies it keeps external.
RUN pnpm install --frozen-lockfile \
 && pnpm --filter @palisade/gateway build \
 && pnpm --filter @palisade/gateway deploy --prod --legacy /out

FROM node:20-bookworm-slim
# --no-install-recommends: otherwise wireguard-tools pulls in a kernel image.
RUN apt-get update \
 && apt-get install -y --no-install-recommends wireguard-tools wireguard-go nftables iproute2 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /out /app
ENV NODE_ENV=production GATEWAY_IFNAME=wg0 GATEWAY_USERSPACE=auto GATEWAY_HEALTH_PORT=8081
# Root inside the container, limited to the capabilities given with --cap-add: creating links and
# TUN devices needs CAP_NET_ADMIN, which a non-root user would only get through file capabilities.
# With --network host, wireguard-go's control sockets live in the container's /var/run/wireguard:
# stopping the container takes the userspace tunnel down (the kernel interface stays).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.GATEWAY_HEALTH_PORT||8081)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "--enable-source-maps", "bin/palisade-gateway.mjs"]
