export const E2E_PORT = 8910;
/** The e2e product's gRPC port for gateways: its own, so a Palisade running on the default 50055 does not collide. */
export const E2E_GRPC_PORT = 50910;
/**
 * The release feed the e2e product reads (UPDATE_FEED_URL): served by specs/update-notice.spec.ts
 * while it runs; in every other spec nothing listens there and the egress guard refuses loopback.
 */
export const E2E_UPDATE_FEED_PORT = 50911;
/** The bootstrap admin's password for the throw-away e2e database (overridable with PALISADE_E2E_URL runs). */
export const ADMIN_PASSWORD = process.env.PALISADE_E2E_ADMIN_PASSWORD ?? 'E2e-Admin-Pass1!';
export const ADMIN_USERNAME = 'admin';
