import { z } from 'zod';

/**
 * Gateway notifications (docs/gateways.md#notifications, spec §3/§5): mail to the administrators
 * when a gateway stays disconnected longer than the inactivity threshold, and when it is back.
 * They need outgoing mail (SMTP) configured first.
 */

/** Minutes a gateway must stay disconnected before the disconnect mail: 1 minute to 1 day. */
export const GATEWAY_INACTIVITY_THRESHOLD_MIN = 1;
export const GATEWAY_INACTIVITY_THRESHOLD_MAX = 1440;

/** The gateway notification fields of GET /settings. */
export const gatewayNotificationSettingsView = {
  gateway_disconnect_notifications_enabled: z.boolean(),
  /** Minutes. */
  gateway_inactivity_threshold: z.number().int(),
  gateway_reconnect_notifications_enabled: z.boolean(),
};

/**
 * The gateway notification fields of a settings write; each optional (absent keeps the stored
 * value). Turning a notification on while SMTP is not configured answers 400 `mail.not_configured`.
 */
export const gatewayNotificationSettingsFields = {
  gateway_disconnect_notifications_enabled: z.boolean({ error: 'invalid_type' }).optional(),
  gateway_inactivity_threshold: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(GATEWAY_INACTIVITY_THRESHOLD_MIN, { error: 'min_value' })
    .max(GATEWAY_INACTIVITY_THRESHOLD_MAX, { error: 'max_value' })
    .optional(),
  gateway_reconnect_notifications_enabled: z.boolean({ error: 'invalid_type' }).optional(),
};

export const DEFAULT_GATEWAY_NOTIFICATION_SETTINGS = {
  gateway_disconnect_notifications_enabled: false,
  gateway_inactivity_threshold: 5,
  gateway_reconnect_notifications_enabled: false,
};
