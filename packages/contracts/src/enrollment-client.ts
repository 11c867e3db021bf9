import { z } from 'zod';
import { deviceNameSchema, wireguardKeySchema } from './devices.js';

/**
 * The token-only client API (docs/cli.md): a machine redeems a one-time token with the public key
 * it generated itself and receives what a wg-quick config needs. No session, no private key.
 */
const clientTokenSchema = z
  .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
  .trim()
  .min(1, { error: 'required' })
  .max(256, { error: 'max_length' });

export const RedeemCliTokenBodySchema = z.strictObject({
  token: clientTokenSchema,
  wireguard_pubkey: wireguardKeySchema,
});
export type RedeemCliTokenBody = z.infer<typeof RedeemCliTokenBodySchema>;

/** The tunnel of one location as a client sets it up (everything but the client's private key). */
export const ClientTunnelSchema = z
  .object({
    location_id: z.number().int(),
    location_name: z.string(),
    /** The device's addresses with the location network's prefix (`Address =`). */
    addresses: z.array(z.string()),
    dns: z.array(z.string()),
    /** The location's public key (`[Peer] PublicKey =`). */
    public_key: z.string(),
    /** `host:port`, IPv6 literals in brackets. */
    endpoint: z.string(),
    allowed_ips: z.array(z.string()),
    /** Seconds; 0 means none. */
    persistent_keepalive: z.number().int(),
    /** The same as a wg-quick file whose `PrivateKey =` line carries a placeholder. */
    config: z.string(),
  })
  .meta({ id: 'ClientTunnel' });
export type ClientTunnel = z.infer<typeof ClientTunnelSchema>;

export const RedeemedCliTokenSchema = z
  .object({
    device: z.object({ id: z.number().int(), name: z.string() }),
    tunnel: ClientTunnelSchema,
  })
  .meta({ id: 'RedeemedCliToken' });
export type RedeemedCliToken = z.infer<typeof RedeemedCliTokenSchema>;

/** Desktop activation (`start_desktop`): a client registers its key as a device of the token's user. */
export const RedeemDesktopTokenBodySchema = z.strictObject({
  token: clientTokenSchema,
  name: deviceNameSchema,
  wireguard_pubkey: wireguardKeySchema,
});
export type RedeemDesktopTokenBody = z.infer<typeof RedeemDesktopTokenBodySchema>;

export const ActivatedDesktopSchema = z
  .object({
    device: z.object({ id: z.number().int(), name: z.string() }),
    user: z.object({ username: z.string() }),
    /** One tunnel per location the user may use (none when they may use none). */
    tunnels: z.array(ClientTunnelSchema),
  })
  .meta({ id: 'ActivatedDesktop' });
export type ActivatedDesktop = z.infer<typeof ActivatedDesktopSchema>;
