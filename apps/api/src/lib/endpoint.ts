/** The host of a WireGuard endpoint as gateways report it: `203.0.113.5:51820` or `[2001:db8::1]:51820`. */
export function hostOfEndpoint(endpoint: string): string {
  return endpoint.startsWith('[') ? endpoint.slice(1, endpoint.indexOf(']')) : endpoint.replace(/:\d+$/, '');
}
