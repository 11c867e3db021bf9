import { z } from 'zod';

/**
 * Gateways (spec §3 Gateways, §4 Gateways status, §7 `/network/{id}/token`, `/network/gateways`,
 * `/network/{id}/gateways`). A gateway is one agent host serving a location over the gRPC control
 * plane (ADR-002); several may serve one location.
 */
export const GATEWAY_STATES = ['synced', 'resyncing', 'degraded', 'unknown'] as const;
export type GatewayState = (typeof GATEWAY_STATES)[number];

/** Summary of a location's gateways (spec §4); the console shows `error` when the call fails. */
export const GATEWAYS_STATUSES = ['all_connected', 'some_connected', 'none_connected'] as const;
export type GatewaysStatus = (typeof GATEWAYS_STATUSES)[number];

export const GatewaySchema = z
  .object({
    /** Numeric id, used by `DELETE /network/{id}/gateways/{gatewayId}`. */
    id: z.number().int(),
    location_id: z.number().int(),
    /** The agent's own stable id (machine id + interface). */
    gateway_id: z.string(),
    name: z.string(),
    hostname: z.string(),
    version: z.string(),
    interface_name: z.string(),
    wireguard_implementation: z.enum(['kernel', 'userspace', 'unknown']),
    connected: z.boolean(),
    /** Start of the current (or last) connection: "connected since". */
    connected_at: z.string().optional(),
    disconnected_at: z.string().optional(),
    last_seen_at: z.string().optional(),
    /** Last revision the gateway applied and acknowledged (0 = none yet). */
    acknowledged_revision: z.number().int(),
    /** Revision of the location's desired state now; `location_revision - acknowledged_revision` is the lag. */
    location_revision: z.number().int(),
    state: z.enum(GATEWAY_STATES),
    status_message: z.string().optional(),
    peer_count: z.number().int().optional(),
  })
  .meta({ id: 'Gateway' });
export type Gateway = z.infer<typeof GatewaySchema>;

export const LocationGatewaysSchema = z
  .object({
    location_id: z.number().int(),
    location_name: z.string(),
    status: z.enum(GATEWAYS_STATUSES),
    gateways: z.array(GatewaySchema),
  })
  .meta({ id: 'LocationGateways' });
export type LocationGateways = z.infer<typeof LocationGatewaysSchema>;

/**
 * Where `grpc_url` comes from: the `GRPC_PUBLIC_URL` setting, the host of `PUBLIC_URL`, or (neither
 * set) the host name the request reached the API with, which may be one only the admin can reach.
 */
export const GRPC_URL_SOURCES = ['grpc_public_url', 'public_url', 'request'] as const;
export type GrpcUrlSource = (typeof GRPC_URL_SOURCES)[number];

/** `GET /network/{id}/token` and `POST /network/{id}/token` (rotate). */
export const GatewayTokenSchema = z
  .object({
    token: z.string(),
    /** Where gateways dial (`GATEWAY_GRPC_URL` of the agent). */
    grpc_url: z.string(),
    grpc_url_source: z.enum(GRPC_URL_SOURCES),
    /** The URL's host is this machine only (localhost, 127.0.0.0/8, ::1, 0.0.0.0): gateways on other hosts cannot reach it. */
    grpc_url_is_loopback: z.boolean(),
  })
  .meta({ id: 'GatewayToken' });
export type GatewayToken = z.infer<typeof GatewayTokenSchema>;

export const GatewayParamsSchema = z.strictObject({
  id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647),
  gatewayId: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647),
});
