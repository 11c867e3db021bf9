export const SYSTEM_PORT = 8911;
/** The system-test product's gRPC port: its own, so a Palisade on the default 50055 does not collide. */
export const SYSTEM_GRPC_PORT = 50911;
