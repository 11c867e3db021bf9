/**
 * The commands shown on the gateway setup page, true to the agent as this repository ships it
 * (apps/gateway/README.md): no published image or package, so the container image is built from
 * `docker/gateway.Dockerfile` and the systemd install is `pnpm deploy` of `@palisade/gateway` into
 * /opt/palisade-gateway with the unit `docker/palisade-gateway.service`, which reads
 * /etc/palisade/gateway.env. Variables: GATEWAY_GRPC_URL, GATEWAY_TOKEN, GATEWAY_IFNAME (default
 * wg0), GATEWAY_USERSPACE (auto|always|never), GATEWAY_STATS_INTERVAL, GATEWAY_HEALTH_PORT,
 * GATEWAY_CA_FILE.
 */
export const GATEWAY_IMAGE = 'palisade/gateway:latest';
export const GATEWAY_UNIT = 'palisade-gateway.service';
export const GATEWAY_ENV_FILE = '/etc/palisade/gateway.env';
export const GATEWAY_INSTALL_DIR = '/opt/palisade-gateway';

/** Run in the root of a checkout of the Palisade repository. */
export function dockerBuildCommand(): string {
  return [
    `docker build -f docker/gateway.Dockerfile -t ${GATEWAY_IMAGE} .`,
    '# Built on another machine? Copy the image to the gateway host:',
    `# docker save ${GATEWAY_IMAGE} | ssh GATEWAY_HOST docker load`,
  ].join('\n');
}

/** Run on the gateway host in the root of a checkout (Node.js ≥ 20.19 at /usr/bin/node, pnpm). */
export function systemdInstallCommands(): string {
  return [
    'sudo apt-get install -y --no-install-recommends wireguard-tools wireguard-go nftables iproute2',
    'pnpm install --frozen-lockfile',
    'pnpm --filter @palisade/gateway build',
    'out="$(mktemp -d)/palisade-gateway"',
    'pnpm --filter @palisade/gateway deploy --prod --legacy "$out"',
    `sudo install -d ${GATEWAY_INSTALL_DIR}`,
    `sudo cp -R "$out/." ${GATEWAY_INSTALL_DIR}/`,
    `sudo install -m 0644 docker/${GATEWAY_UNIT} /etc/systemd/system/`,
  ].join('\n');
}

export interface SetupValues {
  grpcUrl: string;
  token: string;
  ifname?: string;
}

/** POSIX single-quoting, only when the value needs it. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

export function dockerRunCommand({ grpcUrl, token, ifname = 'wg0' }: SetupValues): string {
  return [
    'docker run -d --name palisade-gateway --restart unless-stopped',
    '  --network host --cap-drop ALL --cap-add NET_ADMIN --cap-add NET_RAW --device /dev/net/tun',
    `  -e GATEWAY_GRPC_URL=${shellQuote(grpcUrl)}`,
    `  -e GATEWAY_TOKEN=${shellQuote(token)}`,
    `  -e GATEWAY_IFNAME=${shellQuote(ifname)}`,
    '  -e GATEWAY_USERSPACE=auto',
    `  ${GATEWAY_IMAGE}`,
  ].join(' \\\n');
}

/** The environment file the systemd unit reads; values are not shell-expanded there, so they stay unquoted. */
export function gatewayEnvFile({ grpcUrl, token, ifname = 'wg0' }: SetupValues): string {
  return [
    `GATEWAY_GRPC_URL=${grpcUrl}`,
    `GATEWAY_TOKEN=${token}`,
    `GATEWAY_IFNAME=${ifname}`,
    'GATEWAY_USERSPACE=auto',
    'GATEWAY_STATS_INTERVAL=10',
    'GATEWAY_HEALTH_PORT=8081',
    '# GATEWAY_CA_FILE=/etc/palisade/ca.pem',
    '',
  ].join('\n');
}

/** Writes the environment file (readable by root only: it holds the token) and starts the installed unit. */
export function systemdCommands(values: SetupValues): string {
  return [
    'sudo install -d -m 0750 /etc/palisade',
    `sudo install -m 0600 /dev/stdin ${GATEWAY_ENV_FILE} <<'EOF'`,
    gatewayEnvFile(values).trimEnd(),
    'EOF',
    'sudo systemctl daemon-reload',
    `sudo systemctl enable --now ${GATEWAY_UNIT}`,
    `sudo systemctl status ${GATEWAY_UNIT}`,
  ].join('\n');
}
