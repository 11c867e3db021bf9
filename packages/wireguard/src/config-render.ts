/** The `PrivateKey =` value in configs the server hands out; the client puts its own key there. */
export const PRIVATE_KEY_PLACEHOLDER = 'YOUR_PRIVATE_KEY';

export interface ClientConfigInput {
  /** The device's addresses with the location's prefix, e.g. `10.0.0.2/24`. */
  addresses: string[];
  dns: string[];
  privateKey?: string;
  mtu?: number;
  peer: {
    publicKey: string;
    presharedKey?: string;
    allowedIps: string[];
    endpointHost: string;
    endpointPort: number;
    persistentKeepalive?: number;
  };
}

/** `host:port`, with IPv6 literals in brackets. */
export function formatEndpoint(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

export function renderClientConfig(input: ClientConfigInput): string {
  const lines = ['[Interface]', `PrivateKey = ${input.privateKey ?? PRIVATE_KEY_PLACEHOLDER}`, `Address = ${input.addresses.join(', ')}`];
  if (input.dns.length > 0) lines.push(`DNS = ${input.dns.join(', ')}`);
  if (input.mtu !== undefined) lines.push(`MTU = ${input.mtu}`);
  const peer = input.peer;
  lines.push('', '[Peer]', `PublicKey = ${peer.publicKey}`);
  if (peer.presharedKey) lines.push(`PresharedKey = ${peer.presharedKey}`);
  if (peer.allowedIps.length > 0) lines.push(`AllowedIPs = ${peer.allowedIps.join(', ')}`);
  lines.push(`Endpoint = ${formatEndpoint(peer.endpointHost, peer.endpointPort)}`);
  if (peer.persistentKeepalive !== undefined && peer.persistentKeepalive > 0) {
    lines.push(`PersistentKeepalive = ${peer.persistentKeepalive}`);
  }
  return `${lines.join('\n')}\n`;
}
