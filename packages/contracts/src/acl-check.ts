import { isIp } from '@palisade/wireguard';
import { z } from 'zod';

/**
 * The access check (`GET /acl/check`, docs/acl.md "How rules are evaluated"): would traffic from a
 * source to (destination, port, protocol) in a location pass the deployed ACL? Answered by the
 * same compiler and first-match decision the gateways apply. A source is a user (their
 * membership: all their devices decide alike, with or without a device in the location), a user
 * device or a network device.
 */
export const ACL_CHECK_SOURCE_PATTERN = /^(user|device|network_device):[1-9][0-9]{0,9}$/;
export const ACL_CHECK_PROTOCOLS = ['tcp', 'udp', 'icmp'] as const;

const idText = z
  .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
  .regex(/^[1-9][0-9]{0,9}$/, { error: 'number' })
  .transform(Number)
  .refine((n) => n <= 2_147_483_647, { error: 'max_value' });

export const AclCheckQuerySchema = z
  .strictObject({
    location: idText,
    source: z
      .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
      .regex(ACL_CHECK_SOURCE_PATTERN, { error: 'invalid' }),
    destination: z
      .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
      .max(64, { error: 'max_length' })
      .refine((v) => isIp(v), { error: 'invalid' }),
    port: z
      .string({ error: 'invalid_type' })
      .regex(/^[1-9][0-9]{0,4}$/, { error: 'number' })
      .transform(Number)
      .refine((n) => n <= 65_535, { error: 'max_value' })
      .optional(),
    protocol: z.enum(ACL_CHECK_PROTOCOLS, { error: 'invalid' }),
  })
  .superRefine((q, ctx) => {
    // Ports belong to TCP and UDP: required there, meaningless for ICMP.
    if (q.protocol !== 'icmp' && q.port === undefined) ctx.addIssue({ code: 'custom', path: ['port'], message: 'required' });
    if (q.protocol === 'icmp' && q.port !== undefined) ctx.addIssue({ code: 'custom', path: ['port'], message: 'invalid' });
  });
export type AclCheckQuery = z.infer<typeof AclCheckQuerySchema>;

export const AclCheckDecidedBySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('rule'),
    rule_id: z.number().int(),
    rule_name: z.string(),
    /** The firewall rule that matched first, e.g. `r12_allow`, `r12_a3_deny`, `r12_claim`. */
    firewall_rule_id: z.string(),
  }),
  z.object({ kind: z.literal('default') }),
]);

export const AclCheckResultSchema = z
  .object({
    verdict: z.enum(['allow', 'deny']),
    decided_by: AclCheckDecidedBySchema,
    /** The location's ACL mode (spec §4): unmanaged lets everything through. */
    mode: z.enum(['unmanaged', 'deny_by_default', 'allow_by_default']),
    /** Devices the source stands for (a user's devices; empty for a user without any). */
    source_devices: z.array(z.number().int()),
  })
  .meta({ id: 'AclCheckResult' });
export type AclCheckResult = z.infer<typeof AclCheckResultSchema>;
