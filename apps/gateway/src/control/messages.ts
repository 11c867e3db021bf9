import { create } from '@bufbuild/protobuf';
import { type GatewayMessage, GatewayMessageSchema, GatewayState, SnapshotRequestReason, WireGuardImplementation } from '@palisade/proto';
import type { Implementation } from '#src/ports/wireguard.js';
import type { Effect, Health, SnapshotReason } from './revision-tracker.js';

/** Mapping between the tracker's effects and the protocol's messages (gateway.proto). */
export interface GatewayIdentity {
  gatewayId: string;
  gatewayName: string;
  hostname: string;
  agentVersion: string;
  interfaceName: string;
}

const REASONS: Record<SnapshotReason, SnapshotRequestReason> = {
  gap: SnapshotRequestReason.GAP,
  'unknown-revision': SnapshotRequestReason.UNKNOWN_REVISION,
  'apply-failed': SnapshotRequestReason.APPLY_FAILED,
};

const STATES: Record<Health, GatewayState> = {
  synced: GatewayState.SYNCED,
  resyncing: GatewayState.RESYNCING,
  degraded: GatewayState.DEGRADED,
};

const IMPLEMENTATIONS: Record<Implementation, WireGuardImplementation> = {
  kernel: WireGuardImplementation.KERNEL,
  userspace: WireGuardImplementation.USERSPACE,
};

const implementationOf = (implementation: Implementation | null) =>
  implementation ? IMPLEMENTATIONS[implementation] : WireGuardImplementation.UNSPECIFIED;

export function helloMessage(
  identity: GatewayIdentity,
  effect: Extract<Effect, { type: 'send-hello' }>,
  implementation: Implementation | null,
): GatewayMessage {
  return create(GatewayMessageSchema, {
    kind: {
      case: 'hello',
      value: {
        ...identity,
        appliedRevisionEpoch: effect.epoch,
        appliedRevision: effect.appliedRevision,
        wireguardImplementation: implementationOf(implementation),
      },
    },
  });
}

/** The message for an effect that sends one (acks, snapshot requests, status); else undefined. */
export function messageForEffect(
  effect: Effect,
  peerCount: number,
  implementation: Implementation | null = null,
): GatewayMessage | undefined {
  switch (effect.type) {
    case 'ack':
      return create(GatewayMessageSchema, { kind: { case: 'ack', value: { revision: effect.revision, revisionEpoch: effect.epoch } } });
    case 'request-snapshot':
      return create(GatewayMessageSchema, {
        kind: {
          case: 'snapshotRequest',
          value: {
            reason: REASONS[effect.reason],
            appliedRevision: effect.appliedRevision,
            receivedRevision: effect.receivedRevision,
            detail: effect.detail,
          },
        },
      });
    case 'report-status':
      return create(GatewayMessageSchema, {
        kind: {
          case: 'status',
          value: {
            state: STATES[effect.health],
            appliedRevision: effect.appliedRevision,
            message: effect.message,
            peerCount,
            wireguardImplementation: implementationOf(implementation),
          },
        },
      });
    default:
      return undefined;
  }
}
