import { PRIVATE_KEY_PLACEHOLDER } from '@palisade/wireguard';
import { redeemToken } from './api.js';
import type { Command } from './args.js';
import { CliError } from './errors.js';
import { newKeyPair } from './keys.js';
import type { System } from './system.js';
import { ensureWritable, wgQuick, writeConfig } from './tunnel.js';

type Enroll = Extract<Command, { kind: 'enroll' }>;

/** The server's template with this machine's private key in its `PrivateKey =` line. */
export function withPrivateKey(template: string, privateKey: string): string {
  const line = `PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`;
  if (!template.includes(line)) throw new CliError('The server answered a config without a private key placeholder; nothing was written.');
  return template.replace(line, `PrivateKey = ${privateKey}`);
}

/**
 * `palisade enroll`: everything that can fail here is checked before the token is spent (root for
 * --up, a writable config directory, no config in the way), then the key pair is made locally,
 * the public key registered, and the config written with mode 0600 (and brought up with --up).
 */
export async function enroll(cmd: Enroll, system: System, log: (line: string) => void, fetchImpl: typeof fetch = fetch): Promise<string> {
  if (cmd.up && !system.isRoot()) throw new CliError('palisade enroll --up needs root: run it with sudo (or enroll without --up).', 4);
  if (cmd.up && !system.has('wg-quick')) {
    throw new CliError(
      'wg-quick is not installed: install wireguard-tools (Debian/Ubuntu: apt-get install wireguard-tools), or enroll without --up.',
      3,
    );
  }
  await ensureWritable(cmd, cmd.force);
  if (cmd.url.protocol === 'http:')
    log(`warning: ${cmd.url.origin} is plain http: the token travels unencrypted (use https:// outside a trusted network)`);
  const keys = await newKeyPair(system);
  log(`generated a WireGuard key pair (${keys.source === 'wg' ? 'wg genkey' : 'Node crypto'}); public key ${keys.publicKey}`);
  const redeemed = await redeemToken(cmd.url, cmd.token, keys.publicKey, fetchImpl);
  const { device, tunnel } = redeemed;
  const file = await writeConfig(cmd, withPrivateKey(tunnel.config, keys.privateKey));
  log(`enrolled as network device "${device.name}" in location "${tunnel.location_name}" (${tunnel.addresses.join(', ')})`);
  log(`wrote ${file} (mode 0600)`);
  if (cmd.up) {
    await wgQuick(system, 'up', cmd, log);
    log(`${cmd.interfaceName} is up: peer ${tunnel.endpoint}, routes ${tunnel.allowed_ips.join(', ')}`);
  } else {
    log(`bring it up with: sudo wg-quick up ${file}`);
  }
  return file;
}
