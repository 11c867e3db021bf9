export {
  blockedReason,
  type EgressBlockReason,
  EgressBlockedError,
  type EgressPolicy,
  isAllowed,
} from './address-policy.js';
export { checkEgressUrl } from './resolve-destination.js';
export { parseRetryAfter } from './retry-after.js';
export {
  type EgressFailureKind,
  EgressRequestError,
  type OutgoingRequest,
  type OutgoingResponse,
  sendOutgoing,
} from './send-outgoing.js';
