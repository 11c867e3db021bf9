import type { PatchSettingsBody, Settings } from '@palisade/contracts';
import { mailNotConfigured } from '#src/modules/mail/mail.service.js';
import type { SettingsRow } from '#src/modules/settings/settings.repo.js';
import { isSmtpConfigured } from '#src/modules/settings/settings.service.js';

type GatewayNotificationSettings = Pick<
  Settings,
  'gateway_disconnect_notifications_enabled' | 'gateway_inactivity_threshold' | 'gateway_reconnect_notifications_enabled'
>;

/** The gateway notification fields of GET /settings (docs/gateways.md#notifications). */
export const toGatewayNotificationSettings = (row: SettingsRow): GatewayNotificationSettings => ({
  gateway_disconnect_notifications_enabled: row.gatewayDisconnectNotificationsEnabled,
  gateway_inactivity_threshold: row.gatewayInactivityThreshold,
  gateway_reconnect_notifications_enabled: row.gatewayReconnectNotificationsEnabled,
});

/** The columns a settings write changes (absent fields keep the stored value). */
export const gatewayNotificationValues = (body: PatchSettingsBody): Partial<SettingsRow> => ({
  ...(body.gateway_disconnect_notifications_enabled !== undefined && {
    gatewayDisconnectNotificationsEnabled: body.gateway_disconnect_notifications_enabled,
  }),
  ...(body.gateway_inactivity_threshold !== undefined && { gatewayInactivityThreshold: body.gateway_inactivity_threshold }),
  ...(body.gateway_reconnect_notifications_enabled !== undefined && {
    gatewayReconnectNotificationsEnabled: body.gateway_reconnect_notifications_enabled,
  }),
});

/**
 * Spec §5: gateway notifications require SMTP first. A write that turns one on while outgoing
 * mail is not configured (after the write) answers 400 `mail.not_configured`. Clearing the SMTP
 * settings later stays possible: the notifications then wait for SMTP (the job sends nothing).
 */
export function checkGatewayNotifications(body: PatchSettingsBody, row: SettingsRow): void {
  const turnsOn = body.gateway_disconnect_notifications_enabled === true || body.gateway_reconnect_notifications_enabled === true;
  if (turnsOn && !isSmtpConfigured(row)) throw mailNotConfigured();
}
