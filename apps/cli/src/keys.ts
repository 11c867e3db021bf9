import { generateKeyPair, isValidKey, type KeyPair } from '@palisade/wireguard';
import { CliError } from './errors.js';
import type { System } from './system.js';

/**
 * A new WireGuard key pair made on this machine: with `wg genkey` / `wg pubkey` when wireguard-tools
 * are installed, else X25519 from Node's CSPRNG (@palisade/wireguard). The private key never leaves.
 */
export async function newKeyPair(system: System): Promise<KeyPair & { source: 'wg' | 'node' }> {
  if (!system.has('wg')) return { ...generateKeyPair(), source: 'node' };
  const gen = await system.run('wg', ['genkey']);
  const privateKey = gen.stdout.trim();
  if (gen.code !== 0 || !isValidKey(privateKey)) throw new CliError(`wg genkey failed: ${gen.stderr.trim() || 'no key'}`);
  const pub = await system.run('wg', ['pubkey'], `${privateKey}\n`);
  const publicKey = pub.stdout.trim();
  if (pub.code !== 0 || !isValidKey(publicKey)) throw new CliError(`wg pubkey failed: ${pub.stderr.trim() || 'no key'}`);
  return { privateKey, publicKey, source: 'wg' };
}
