# Palisade YubiKey provisioning station (`palisade-provisioner`, apps/provisioner) with gpg,
# scdaemon, pcscd and ykman. Build from the repository root:
#   docker build -f docker/provisioner.Dockerfile -t palisade/provisioner .
# Run it on the machine the YubiKey is plugged into, with the USB bus (pcscd inside the container
# talks to the card) — the command the console's station setup shows:
#   docker run -d --name palisade-provisioner --restart unless-stopped --device /dev/bus/usb \
#     -e PROVISIONER_URL=https://palisade.example.com -e PROVISIONER_TOKEN=palr_… \
#     -e PROVISIONER_NAME=desk-1 palisade/provisioner
# Arguments after the image name are flags of the station (`docker run --rm palisade/provisioner --help`).
# docs/provisioning.md documents every setting.
#
# Base images are pinned to a full version (the Node.js release the test suite runs on, Debian
# 12 "bookworm"); there is no digest because the tag is what the project can check without
# Docker Hub. The apt packages are bookworm's (not pinned: Debian's stable security updates).
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /src
ENV TURBO_TELEMETRY_DISABLED=1 CI=true
RUN npm install -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile \
 && pnpm --filter @palisade/provisioner deploy --prod --legacy /out

FROM node:20.20.2-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends gnupg scdaemon pcscd yubikey-manager ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /out /app
# Each job's keys live in a fresh GNUPGHOME under /tmp (0700) that the station deletes after the
# card step; nothing else is kept. pcscd runs in the container and exits with it.
ENV NODE_ENV=production PROVISIONER_CARD=yubikey PROVISIONER_KEY_ALGORITHM=ed25519
# Root inside the container, on purpose (the one image without USER): pcscd must open the card's
# USB device node, which `--device /dev/bus/usb` creates with the host's owner and mode (root,
# 0664 on a default Debian host: writable by root only; the host's udev ACLs are not copied).
# The container gets no added capabilities.
ENTRYPOINT ["sh", "-c", "pcscd --auto-exit; exec node bin/palisade-provisioner.mjs \"$@\"", "palisade-provisioner"]
