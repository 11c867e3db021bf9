/**
 * The commands shown on the gateway setup page. The agent's operator interface (its README) is
 * fixed: variables GATEWAY_GRPC_URL, GATEWAY_TOKEN, GATEWAY_IFNAME (default wg0),
 * GATEWAY_USERSPACE (auto|always|never), GATEWAY_STATS_INTERVAL, GATEWAY_HEALTH_PORT,
 * GATEWAY_CA_FILE; the image palisade/gateway; the unit palisade-gateway.service reading
 * /etc/palisade/gateway.env.
 */
export const GATEWAY_IMAGE = 'palisade/gateway:latest';
export const GATEWAY_UNIT = 'palisade-gateway.service';
export const GATEWAY_ENV_FILE = '/etc/palisade/gateway.env';

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
