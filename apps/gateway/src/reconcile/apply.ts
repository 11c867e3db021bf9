import type { Action } from './actions.js';
import type { InterfaceState, PeerState } from './state.js';

/**
 * The meaning of actions as a pure function: the state an interface is in after executing them.
 * The fake adapter uses it as its "kernel", the agent uses it to keep its model of the actual
 * state between full reads, and the property tests use it to check `diff`.
 */
const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

function applyOne(state: InterfaceState, peers: Map<string, PeerState>, action: Action): InterfaceState {
  switch (action.type) {
    case 'interface.create':
      return { ...state, exists: true };
    case 'interface.configure': {
      const { addAddresses = [], removeAddresses = [], up, ...rest } = action.set;
      const { down, ...config } = state.config;
      const addresses = sortedUnique([...config.addresses.filter((a) => !removeAddresses.includes(a)), ...addAddresses]);
      return { ...state, config: { ...config, ...(down && !up ? { down } : {}), ...rest, addresses } };
    }
    case 'peer.add':
      peers.set(action.peer.publicKey, action.peer);
      return state;
    case 'peer.update': {
      const peer = peers.get(action.publicKey);
      if (!peer) throw new Error(`peer.update of unknown peer ${action.publicKey}`);
      peers.set(action.publicKey, { ...peer, ...action.set });
      return state;
    }
    case 'peer.remove':
      peers.delete(action.publicKey);
      return state;
  }
}

export function applyActions(state: InterfaceState, actions: readonly Action[]): InterfaceState {
  const peers = new Map(state.peers);
  let next = state;
  for (const action of actions) {
    if (action.type !== 'interface.create' && !next.exists) throw new Error(`${action.type} on an interface that does not exist`);
    next = applyOne(next, peers, action);
  }
  return { ...next, peers };
}
