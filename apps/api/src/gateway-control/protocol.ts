import { create } from '@bufbuild/protobuf';
import {
  type ControlMessage,
  type ControlErrorCode,
  ControlMessageSchema,
  type Delta,
  type DeltaOp,
  DeltaOpSchema,
  DeltaSchema,
  type Interface,
  InterfaceSchema,
  type Peer,
  PeerSchema,
  WireGuardImplementation,
} from '@palisade/proto';
import type { ChangeRow, HelloInfo, InterfaceRow, LocationState, PeerRow } from './control.repo.js';

/**
 * The revision protocol's pure rules (ADR-002), apart from IO:
 *
 * - On hello: a gateway whose epoch matches and whose applied revision is the current one gets
 *   nothing; one behind, with every later change still in the log (applied >= log floor), gets
 *   the deltas after its revision; anything else (other epoch, nothing applied, pruned window, a
 *   revision from the future) gets a snapshot.
 * - A change-log row names what changed (a peer key, the interface, or everything); the delta for
 *   a revision upserts the named peers that exist now and removes the others, so its content is
 *   read no earlier than its revision committed. A revision that changed everything (`full`)
 *   cannot be a delta: the gateway gets a snapshot instead.
 * - Acks are cumulative and idempotent: only an ack of the current epoch, not above what was
 *   sent on this stream, counts; a duplicate or older ack changes nothing.
 */
export type StartPlan = { type: 'snapshot' } | { type: 'resume'; after: bigint } | { type: 'current' };

export function planStart(hello: { epoch: string; applied: bigint }, state: LocationState): StartPlan {
  if (hello.applied === 0n || hello.epoch === '' || hello.epoch !== state.epoch) return { type: 'snapshot' };
  if (hello.applied === state.revision) return { type: 'current' };
  if (hello.applied > state.revision || hello.applied < state.logFloor) return { type: 'snapshot' };
  return { type: 'resume', after: hello.applied };
}

/** The revision an ack moves the gateway to, or undefined when it must be ignored. */
export function acceptAck(
  ack: { epoch: string; revision: bigint },
  stream: { epoch: string; sent: bigint; acked: bigint },
): bigint | undefined {
  if (ack.epoch !== stream.epoch) return undefined;
  if (ack.revision > stream.sent || ack.revision <= stream.acked) return undefined;
  return ack.revision;
}

export function toInterface(row: InterfaceRow, privateKey: string): Interface {
  return create(InterfaceSchema, { privateKey, listenPort: row.port, addresses: row.addresses });
}

export function toPeer(row: PeerRow, keepalive: number): Peer {
  return create(PeerSchema, {
    publicKey: row.publicKey,
    allowedIps: row.allowedIps,
    persistentKeepalive: keepalive,
    presharedKey: row.presharedKey,
  });
}

/**
 * Deltas for `revisions` (ascending) from their change rows and the current peers of the keys
 * they name. Returns null when one of them needs a snapshot (`full`).
 */
export function buildDeltas(
  revisions: bigint[],
  changes: ChangeRow[],
  peers: ReadonlyMap<string, PeerRow>,
  iface: Interface | undefined,
  keepalive: number,
  firewallOps: ReadonlyMap<bigint, DeltaOp[]> = new Map(),
): Delta[] | null {
  const byRevision = new Map<bigint, ChangeRow[]>();
  for (const c of changes) {
    const list = byRevision.get(c.revision);
    if (list) list.push(c);
    else byRevision.set(c.revision, [c]);
  }
  const out: Delta[] = [];
  for (const revision of revisions) {
    const rows = byRevision.get(revision);
    if (!rows || rows.some((r) => r.kind === 'full')) return null;
    const ops: DeltaOp[] = [];
    for (const row of rows) {
      if (row.kind.startsWith('fw_')) continue;
      if (row.kind === 'interface') {
        if (!iface) return null;
        ops.push(create(DeltaOpSchema, { op: { case: 'interfaceChange', value: { interface: iface } } }));
        continue;
      }
      const peer = peers.get(row.key);
      ops.push(
        peer
          ? create(DeltaOpSchema, { op: { case: 'peerUpsert', value: { peer: toPeer(peer, keepalive) } } })
          : create(DeltaOpSchema, { op: { case: 'peerRemove', value: { publicKey: row.key } } }),
      );
    }
    ops.push(...(firewallOps.get(revision) ?? []));
    // Removals first: a key rotation is remove(old) + upsert(new), and the new key may reuse nothing.
    ops.sort((a, b) => rank(a) - rank(b));
    out.push(create(DeltaSchema, { revision, ops }));
  }
  return out;
}

const RANKS: Partial<Record<NonNullable<DeltaOp['op']['case']>, number>> = {
  interfaceChange: 0,
  peerRemove: 1,
  peerUpsert: 2,
  firewallReplace: 3,
  firewallRuleRemove: 4,
  firewallMemberRemove: 5,
  firewallMemberUpsert: 6,
  firewallMemberListUpsert: 6,
  firewallRuleUpsert: 7,
};
const rank = (op: DeltaOp) => (op.op.case ? (RANKS[op.op.case] ?? 8) : 8);

export const deltaMessage = (delta: Delta): ControlMessage => create(ControlMessageSchema, { kind: { case: 'delta', value: delta } });

export const errorMessage = (code: ControlErrorCode, message: string): ControlMessage =>
  create(ControlMessageSchema, { kind: { case: 'error', value: { code, message } } });

const IMPLEMENTATIONS: Record<number, HelloInfo['implementation']> = {
  [WireGuardImplementation.KERNEL]: 'kernel',
  [WireGuardImplementation.USERSPACE]: 'userspace',
};

/** What drives a gateway's interface, as its hello or status says ('unknown' when unspecified). */
export const implementationName = (value: WireGuardImplementation): HelloInfo['implementation'] => IMPLEMENTATIONS[value] ?? 'unknown';

const clip = (value: string, max: number) => value.slice(0, max);

/** The hello's identity, bounded (it is stored and shown in the console). */
export function helloInfo(hello: {
  gatewayId: string;
  gatewayName: string;
  hostname: string;
  agentVersion: string;
  interfaceName: string;
  wireguardImplementation: WireGuardImplementation;
}): HelloInfo | undefined {
  if (hello.gatewayId.trim() === '') return undefined;
  return {
    gatewayId: clip(hello.gatewayId, 128),
    name: clip(hello.gatewayName || hello.hostname || hello.gatewayId, 128),
    hostname: clip(hello.hostname, 255),
    version: clip(hello.agentVersion, 64),
    interfaceName: clip(hello.interfaceName, 32),
    implementation: implementationName(hello.wireguardImplementation),
  };
}
