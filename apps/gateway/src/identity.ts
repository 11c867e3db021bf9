import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { GatewayIdentity } from './control/messages.js';
import { AGENT_VERSION } from './version.js';

/**
 * Who this gateway is. Several gateways may serve one location, so the id must be stable per
 * machine and interface across restarts, without any state file: a hash of /etc/machine-id (or
 * the hostname when there is none) and the interface name.
 */
export function gatewayIdentity(
  ifname: string,
  readMachineId: () => string = () => readFileSync('/etc/machine-id', 'utf8'),
): GatewayIdentity {
  const host = hostname();
  let machine: string;
  try {
    machine = readMachineId().trim() || host;
  } catch {
    machine = host;
  }
  const gatewayId = createHash('sha256').update(`palisade-gateway\0${machine}\0${ifname}`).digest('hex').slice(0, 32);
  return { gatewayId, gatewayName: host, hostname: host, agentVersion: AGENT_VERSION, interfaceName: ifname };
}
