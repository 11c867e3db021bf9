import type { PeerState } from './state.js';

/**
 * What the agent does to an interface. `diff` emits them; adapters execute them in order.
 * Updates carry only the fields that change, so the adapter never rewrites an unchanged value.
 */
export type Action =
  | { type: 'interface.create' }
  | { type: 'interface.configure'; set: InterfaceChanges }
  | { type: 'peer.add'; peer: PeerState }
  | { type: 'peer.update'; publicKey: string; set: PeerChanges }
  | { type: 'peer.remove'; publicKey: string };

export interface InterfaceChanges {
  privateKey?: string | null;
  listenPort?: number;
  mtu?: number | null;
  addAddresses?: string[];
  removeAddresses?: string[];
  /** Bring the link up (it was found down). */
  up?: true;
}

export type PeerChanges = Partial<Pick<PeerState, 'presharedKey' | 'allowedIps' | 'persistentKeepalive'>>;
