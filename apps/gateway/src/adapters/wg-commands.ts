import type { Action, PeerChanges } from '#src/reconcile/actions.js';
import { ZERO_KEY } from '#src/reconcile/normalize.js';
import type { PeerState } from '#src/reconcile/state.js';

/**
 * Turns actions into as few tool invocations as possible (the agent must apply a 10,000-peer
 * snapshot about as fast as `wg setconf`):
 *   1. `ip -batch -`: addresses and MTU;
 *   2. `wg set <if> peer K remove …`: removals;
 *   3. `wg set <if> peer K <changed settings> …`: updates, naming only the settings that change
 *      (a changed preshared key goes through stdin, one command per key, to stay off argv);
 *   4. `wg addconf <if> /dev/stdin`: private key, listen port and every added peer in one call.
 * Updates cannot go through `addconf`: a config file's [Peer] always replaces the peer's allowed
 * IPs (an omitted AllowedIPs clears them), which `wg set` does not. Argv-based commands are
 * chunked far below ARG_MAX. `interface.create` is the link's job, not a tool command.
 */
export interface ToolCommand {
  argv: string[];
  stdin?: string;
}

const CHUNK = 500;

function chunked(ifname: string, items: string[][]): ToolCommand[] {
  const out: ToolCommand[] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push({ argv: ['wg', 'set', ifname, ...items.slice(i, i + CHUNK).flat()] });
  return out;
}

/** Section of a new peer: only settings that differ from WireGuard's defaults. */
function addedPeer(peer: PeerState): string[] {
  const lines = ['[Peer]', `PublicKey = ${peer.publicKey}`];
  if (peer.presharedKey !== null) lines.push(`PresharedKey = ${peer.presharedKey}`);
  if (peer.allowedIps.length > 0) lines.push(`AllowedIPs = ${peer.allowedIps.join(', ')}`);
  if (peer.persistentKeepalive !== 0) lines.push(`PersistentKeepalive = ${peer.persistentKeepalive}`);
  return lines;
}

/** `wg set` words for an update, without the preshared key (see updateCommands). */
function updateWords(publicKey: string, set: PeerChanges): string[] | undefined {
  const words = ['peer', publicKey];
  if (set.allowedIps !== undefined) words.push('allowed-ips', set.allowedIps.join(','));
  if (set.persistentKeepalive !== undefined) words.push('persistent-keepalive', String(set.persistentKeepalive || 'off'));
  return words.length > 2 ? words : undefined;
}

function updateCommands(ifname: string, actions: readonly Action[]): ToolCommand[] {
  const words: string[][] = [];
  const psk: ToolCommand[] = [];
  for (const a of actions) {
    if (a.type !== 'peer.update') continue;
    const w = updateWords(a.publicKey, a.set);
    if (w) words.push(w);
    if (a.set.presharedKey !== undefined) {
      psk.push({
        argv: ['wg', 'set', ifname, 'peer', a.publicKey, 'preshared-key', '/dev/stdin'],
        stdin: `${a.set.presharedKey ?? ZERO_KEY}\n`,
      });
    }
  }
  return [...chunked(ifname, words), ...psk];
}

function ipBatch(ifname: string, actions: readonly Action[]): string[] {
  const lines: string[] = [];
  for (const a of actions) {
    if (a.type !== 'interface.configure') continue;
    for (const addr of a.set.removeAddresses ?? []) lines.push(`address del ${addr} dev ${ifname}`);
    for (const addr of a.set.addAddresses ?? []) lines.push(`address add ${addr} dev ${ifname}`);
    if (a.set.mtu !== undefined && a.set.mtu !== null) lines.push(`link set dev ${ifname} mtu ${a.set.mtu}`);
    if (a.set.up) lines.push(`link set dev ${ifname} up`);
  }
  return lines;
}

function addconf(actions: readonly Action[]): string[] {
  const head: string[] = [];
  const peers: string[] = [];
  for (const a of actions) {
    if (a.type === 'interface.configure') {
      if (a.set.privateKey) head.push(`PrivateKey = ${a.set.privateKey}`);
      if (a.set.listenPort !== undefined) head.push(`ListenPort = ${a.set.listenPort}`);
    } else if (a.type === 'peer.add') peers.push(...addedPeer(a.peer));
  }
  return [...(head.length > 0 ? ['[Interface]', ...head] : []), ...peers];
}

export function planCommands(ifname: string, actions: readonly Action[]): ToolCommand[] {
  const commands: ToolCommand[] = [];
  const batch = ipBatch(ifname, actions);
  if (batch.length > 0) commands.push({ argv: ['ip', '-batch', '-'], stdin: `${batch.join('\n')}\n` });
  const clearsKey = actions.some((a) => a.type === 'interface.configure' && a.set.privateKey === null);
  if (clearsKey) commands.push({ argv: ['wg', 'set', ifname, 'private-key', '/dev/null'] });
  commands.push(
    ...chunked(
      ifname,
      actions.flatMap((a) => (a.type === 'peer.remove' ? [['peer', a.publicKey, 'remove']] : [])),
    ),
  );
  commands.push(...updateCommands(ifname, actions));
  const config = addconf(actions);
  if (config.length > 0) commands.push({ argv: ['wg', 'addconf', ifname, '/dev/stdin'], stdin: `${config.join('\n')}\n` });
  return commands;
}
