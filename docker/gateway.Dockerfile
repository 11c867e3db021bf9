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
#
# Base images are pinned to a full version (the Node.js release the test suite runs on, Debian
# 12 "bookworm"); there is no digest because the tag is what the project can check without
# Docker Hub. The apt packages are bookworm's (not pinned: Debian's stable security updates).
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /src
ENV TURBO_TELEMETRY_DISABLED=1 CI=true
RUN npm install -g pnpm@10.34.9
COPY . .
# The bundle (scripts/bundle-node-app.mjs) inlines the workspace packages; `deploy` adds the npm
# dependencies it keeps external.
RUN pnpm install --frozen-lockfile \
 && pnpm --filter @palisade/gateway build \
 && pnpm --filter @palisade/gateway deploy --prod --legacy /out

FROM node:20.20.2-bookworm-slim
# --no-install-recommends: otherwise wireguard-tools pulls in a kernel image. libcap2-bin: setcap.
RUN apt-get update \
 && apt-get install -y --no-install-recommends wireguard-tools wireguard-go nftables iproute2 ca-certificates libcap2-bin \
 && rm -rf /var/lib/apt/lists/*
# The agent runs as the unprivileged user `node` (uid 1000) with CAP_NET_ADMIN and CAP_NET_RAW as
# ambient capabilities, like the systemd unit's AmbientCapabilities: Docker gives a non-root user
# no capabilities, and file capabilities on the tools are not enough, because `ip` (iproute2)
# drops every capability at start when it runs as non-root without CAP_NET_ADMIN in its
# inheritable set. So the entrypoint is a copy of setpriv (util-linux) that may hold the two
# capabilities (file capability, permitted only) and that only group `node` may run: it raises
# them to inheritable + ambient and starts node, so the agent and the `ip`, `wg`, `wireguard-go`
# and `nft` it runs have them. This needs `--cap-add NET_ADMIN --cap-add NET_RAW` (the bounding
# set) and no `no-new-privileges` option (which ignores file capabilities); without either the
# container stops at once with "setpriv: … Operation not permitted". The agent is run this way
# (same launcher flags, bounding set and user model, no Docker) by
# apps/gateway/test/container-user.system.test.ts.
# /run/wireguard holds wireguard-go's control sockets; it belongs to the agent's user.
RUN install -o root -g node -m 0750 "$(command -v setpriv)" /usr/local/bin/palisade-netcaps \
 && setcap cap_net_admin,cap_net_raw+p /usr/local/bin/palisade-netcaps \
 && install -d -o node -g node -m 0700 /run/wireguard
WORKDIR /app
COPY --from=build /out /app
ENV NODE_ENV=production GATEWAY_IFNAME=wg0 GATEWAY_USERSPACE=auto GATEWAY_HEALTH_PORT=8081
USER node
# With --network host, wireguard-go's control sockets live in the container's /run/wireguard:
# stopping the container takes the userspace tunnel down (the kernel interface stays).
# 8081: GET /health and GET /metrics (GATEWAY_HEALTH_PORT).
EXPOSE 8081
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.GATEWAY_HEALTH_PORT||8081)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["palisade-netcaps", "--inh-caps=+net_admin,+net_raw", "--ambient-caps=+net_admin,+net_raw", "--", "node", "--enable-source-maps", "bin/palisade-gateway.mjs"]
