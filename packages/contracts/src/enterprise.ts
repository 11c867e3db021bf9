import { z } from 'zod';

/** Spec §3/§6: disable user device management, all-traffic routing, manual WireGuard config. */
export const EnterpriseSettingsSchema = z
  .object({
    admin_device_management: z.boolean(),
    disable_all_traffic: z.boolean(),
    disable_manual_config: z.boolean(),
  })
  .meta({ id: 'EnterpriseSettings' });
export type EnterpriseSettings = z.infer<typeof EnterpriseSettingsSchema>;

export const PatchEnterpriseSettingsBodySchema = z.strictObject({
  admin_device_management: z.boolean({ error: 'invalid_type' }).optional(),
  disable_all_traffic: z.boolean({ error: 'invalid_type' }).optional(),
  disable_manual_config: z.boolean({ error: 'invalid_type' }).optional(),
});
export type PatchEnterpriseSettingsBody = z.infer<typeof PatchEnterpriseSettingsBodySchema>;
