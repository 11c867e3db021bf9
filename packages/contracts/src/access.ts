/**
 * The permission table: every `/api/v1` route and who may call it. The API refuses to start when
 * a registered route has no entry here, and the route-walking test checks each entry's behaviour
 * for an anonymous caller, a user, another user and an admin.
 *
 * - `public`: anyone, no session needed.
 * - `user`: any signed-in, active user.
 * - `self_or_admin`: a signed-in user acting on themselves (route param `username`), or an admin.
 * - `owner_or_admin`: a signed-in user; the service lets only the object's owner (or an admin)
 *   through and answers 403 otherwise (devices addressed by id).
 * - `admin`: members of a group with the admin flag.
 * - `mfa_pending`: only a pending-MFA session (password passed, second step not yet): the MFA
 *   sign-in steps. Anyone else, signed in or not, gets 401.
 * - `worker`: only a provisioning station (`Authorization: Worker <token>`, docs/provisioning.md):
 *   the route checks the token (the registration token to register, the station's own token
 *   otherwise). Anyone else, signed in or not, gets 401.
 */
export type Access = 'public' | 'user' | 'self_or_admin' | 'owner_or_admin' | 'admin' | 'mfa_pending' | 'worker';

/**
 * The module a route belongs to (settings `<module>_enabled`). While its module is disabled the
 * route answers 404 `module.disabled` to every signed-in caller, admins included (anonymous callers
 * still hear 401). Routes without a module (identity, settings, auth) are always available.
 */
export const MODULES = ['wireguard', 'webhooks', 'worker', 'openid'] as const;
export type Module = (typeof MODULES)[number];

export interface RouteRule {
  access: Access;
  /** Permission name `resource.action` (STYLE.md), used in docs and logs. */
  permission: string;
  module?: Module;
  /**
   * Spec §6 enterprise-only endpoint. The access plugin's licence check answers its writes (every
   * method but GET) with 402 `license.required` while enterprise features are off (over the free
   * limits without an active licence, docs/licensing.md); its reads stay open so the console can
   * show what exists and the upgrade prompt.
   */
  enterprise?: true;
}

const rule = (access: Access, permission: string): RouteRule => ({ access, permission });
/** A route of the WireGuard module: locations, devices, network devices, gateways, stats, tokens. */
const wireguard = (access: Access, permission: string): RouteRule => ({ access, permission, module: 'wireguard' });
/** A route of the webhooks module. */
const webhooks = (access: Access, permission: string): RouteRule => ({ access, permission, module: 'webhooks' });
/** A route of the OpenID module (the provider and its apps). */
const openidModule = (access: Access, permission: string): RouteRule => ({ access, permission, module: 'openid' });
/** A route of the YubiKey provisioning module (settings `worker_enabled`). */
const worker = (access: Access, permission: string): RouteRule => ({ access, permission, module: 'worker' });
/** An enterprise-only route (spec §6). */
const enterprise = (access: Access, permission: string): RouteRule => ({ access, permission, enterprise: true });
/** An ACL route: enterprise-only (spec §6) and part of the WireGuard module (rules are about locations). */
const acl = (access: Access, permission: string): RouteRule => ({ access, permission, enterprise: true, module: 'wireguard' });

export const ROUTE_ACCESS = {
  'GET /api/v1/health': rule('public', 'health.read'),
  'GET /api/v1/health/live': rule('public', 'health.read'),
  'GET /api/v1/health/ready': rule('public', 'health.read'),
  'GET /api/v1/openapi.json': rule('public', 'openapi.read'),
  'GET /api/v1/info': rule('user', 'info.read'),
  /** Spec §6: only admins check for updates. */
  'GET /api/v1/updates': rule('admin', 'updates.read'),
  'GET /api/v1/settings_essentials': rule('public', 'settings.read_essentials'),
  'GET /api/v1/settings': rule('admin', 'settings.read'),
  'PUT /api/v1/settings': rule('admin', 'settings.update'),
  'PATCH /api/v1/settings': rule('admin', 'settings.update'),
  'PUT /api/v1/settings/:id': rule('admin', 'settings.restore_branding'),
  'PUT /api/v1/settings/logo/:kind': rule('admin', 'settings.upload_logo'),
  'GET /api/v1/branding/logo/:kind/:file': rule('public', 'branding.read_logo'),
  'GET /api/v1/settings_enterprise': rule('user', 'settings.read_enterprise'),
  'PATCH /api/v1/settings_enterprise': enterprise('admin', 'settings.update_enterprise'),
  // Licence (docs/licensing.md): never gated itself, so an admin can always enter or remove a key.
  'GET /api/v1/enterprise_info': rule('admin', 'licence.read'),
  'PUT /api/v1/licence': rule('admin', 'licence.set'),
  'DELETE /api/v1/licence': rule('admin', 'licence.remove'),
  'POST /api/v1/mail/test': rule('admin', 'mail.test'),
  // Support data for a bug report (docs/support.md).
  'GET /api/v1/support/configuration': rule('admin', 'support.read_configuration'),
  'GET /api/v1/support/logs': rule('admin', 'support.read_logs'),
  'POST /api/v1/mail/support': rule('admin', 'mail.support'),
  'GET /api/v1/test_directory_sync': rule('admin', 'directory_sync.test'),
  'POST /api/v1/ldap/sync': rule('admin', 'ldap.sync'),
  'GET /api/v1/ldap/test': rule('admin', 'ldap.test'),

  'POST /api/v1/auth': rule('public', 'auth.login'),
  'POST /api/v1/auth/logout': rule('public', 'auth.logout'),
  'GET /api/v1/me': rule('user', 'me.read'),
  'PUT /api/v1/me/language': rule('user', 'me.set_language'),

  'POST /api/v1/auth/webauthn/init': rule('user', 'mfa.webauthn_register'),
  'POST /api/v1/auth/webauthn/finish': rule('user', 'mfa.webauthn_register'),
  'POST /api/v1/auth/webauthn/start': rule('mfa_pending', 'auth.mfa_webauthn'),
  'POST /api/v1/auth/webauthn': rule('mfa_pending', 'auth.mfa_webauthn'),
  'GET /api/v1/user/:username/security_key': rule('self_or_admin', 'security_key.list'),
  'DELETE /api/v1/user/:username/security_key/:keyId': rule('self_or_admin', 'security_key.delete'),

  // MFA (issue 10): the sign-in steps take only a pending-MFA session.
  'POST /api/v1/auth/totp/init': rule('user', 'mfa.totp_init'),
  'POST /api/v1/auth/totp': rule('user', 'mfa.totp_enable'),
  'POST /api/v1/auth/totp/verify': rule('mfa_pending', 'mfa.totp_verify'),
  'DELETE /api/v1/auth/totp': rule('user', 'mfa.totp_disable'),
  'POST /api/v1/auth/email/init': rule('user', 'mfa.email_init'),
  'POST /api/v1/auth/email': rule('user', 'mfa.email_enable'),
  'GET /api/v1/auth/email': rule('mfa_pending', 'mfa.email_send'),
  'POST /api/v1/auth/email/verify': rule('mfa_pending', 'mfa.email_verify'),
  'DELETE /api/v1/auth/email': rule('user', 'mfa.email_disable'),
  'POST /api/v1/auth/recovery': rule('mfa_pending', 'mfa.recovery_verify'),
  'POST /api/v1/auth/recovery/codes': rule('user', 'mfa.recovery_regenerate'),
  'GET /api/v1/auth/mfa': rule('user', 'mfa.read'),
  'PUT /api/v1/auth/mfa': rule('user', 'mfa.set_default'),
  'DELETE /api/v1/auth/mfa': rule('user', 'mfa.disable'),
  'DELETE /api/v1/user/:username/mfa': rule('admin', 'mfa.reset'),

  'GET /api/v1/user': rule('admin', 'user.list'),
  'POST /api/v1/user': rule('admin', 'user.create'),
  'POST /api/v1/user/available': rule('admin', 'user.check_available'),
  'PUT /api/v1/user/change_password': rule('user', 'user.change_own_password'),
  'GET /api/v1/user/:username': rule('self_or_admin', 'user.read'),
  'PUT /api/v1/user/:username': rule('self_or_admin', 'user.update'),
  'DELETE /api/v1/user/:username': rule('admin', 'user.delete'),
  'PUT /api/v1/user/:username/password': rule('admin', 'user.set_password'),

  'GET /api/v1/group-info': rule('admin', 'group.list_info'),
  'GET /api/v1/group': rule('admin', 'group.list'),
  'POST /api/v1/group': rule('admin', 'group.create'),
  'GET /api/v1/group/:name': rule('admin', 'group.read'),
  'PUT /api/v1/group/:name': rule('admin', 'group.update'),
  'DELETE /api/v1/group/:name': rule('admin', 'group.delete'),
  'POST /api/v1/groups-assign': rule('admin', 'group.assign'),
  'POST /api/v1/group/:group': rule('admin', 'group.add_member'),
  'DELETE /api/v1/group/:group/user/:username': rule('admin', 'group.remove_member'),

  'GET /api/v1/network': wireguard('admin', 'network.list'),
  'POST /api/v1/network': wireguard('admin', 'network.create'),
  'POST /api/v1/network/import': wireguard('admin', 'network.import'),
  'GET /api/v1/network/:id/devices': wireguard('admin', 'network.map_devices'),
  'POST /api/v1/network/:id/devices': wireguard('admin', 'network.map_devices'),
  'GET /api/v1/network/:id': wireguard('admin', 'network.read'),
  'PUT /api/v1/network/:id': wireguard('admin', 'network.update'),
  'DELETE /api/v1/network/:id': wireguard('admin', 'network.delete'),
  'GET /api/v1/network/stats': wireguard('admin', 'network.read_stats'),
  'GET /api/v1/network/stats/users': wireguard('admin', 'network.read_user_stats'),
  'GET /api/v1/network/gateways': wireguard('admin', 'gateway.list'),
  'GET /api/v1/network/:id/token': wireguard('admin', 'gateway.read_token'),
  'POST /api/v1/network/:id/token': wireguard('admin', 'gateway.rotate_token'),
  'GET /api/v1/network/:id/stats': wireguard('admin', 'network.read_stats'),
  'GET /api/v1/network/:id/stats/users': wireguard('admin', 'network.read_user_stats'),
  'GET /api/v1/network/:id/gateways': wireguard('admin', 'gateway.list'),
  'DELETE /api/v1/network/:id/gateways/:gatewayId': wireguard('admin', 'gateway.delete'),
  'GET /api/v1/network/:network_id/device/:device_id/config': wireguard('owner_or_admin', 'device.read_config'),

  'POST /api/v1/device/:username': wireguard('self_or_admin', 'device.create'),
  'GET /api/v1/device': wireguard('admin', 'device.list'),
  'GET /api/v1/device/user/:username': wireguard('self_or_admin', 'device.list_for_user'),
  'GET /api/v1/device/:id': wireguard('owner_or_admin', 'device.read'),
  'PUT /api/v1/device/:id': wireguard('owner_or_admin', 'device.update'),
  'DELETE /api/v1/device/:id': wireguard('owner_or_admin', 'device.delete'),
  // VPN sessions of MFA-protected locations (docs/mfa.md): the caller's own; admins may disconnect any.
  'POST /api/v1/vpn_session/start': wireguard('user', 'vpn_session.start'),
  'POST /api/v1/vpn_session/finish': wireguard('user', 'vpn_session.finish'),
  'GET /api/v1/vpn_session': wireguard('user', 'vpn_session.list_own'),
  'DELETE /api/v1/vpn_session/:id': wireguard('user', 'vpn_session.end'),

  'GET /api/v1/device/network': wireguard('admin', 'network_device.list'),
  'POST /api/v1/device/network': wireguard('admin', 'network_device.create'),
  'GET /api/v1/device/network/ip/:locationId': wireguard('admin', 'network_device.suggest_ip'),
  'POST /api/v1/device/network/ip/:location': wireguard('admin', 'network_device.validate_ip'),
  'POST /api/v1/device/network/start_cli': wireguard('admin', 'network_device.start_cli'),
  'POST /api/v1/device/network/start_cli/:id': wireguard('admin', 'network_device.start_cli'),
  // The token-only client API (docs/cli.md): the one-time token is the credential; off with the WireGuard module.
  'POST /api/v1/enrollment/client/network_device': wireguard('public', 'network_device.enroll_cli'),
  'POST /api/v1/enrollment/client/desktop': wireguard('public', 'device.activate_desktop'),
  'GET /api/v1/device/network/pending': wireguard('admin', 'network_device.list_pending'),
  'DELETE /api/v1/device/network/pending/:id': wireguard('admin', 'network_device.delete_pending'),
  'GET /api/v1/device/network/:id': wireguard('admin', 'network_device.read'),
  'PUT /api/v1/device/network/:id': wireguard('admin', 'network_device.update'),
  'DELETE /api/v1/device/network/:id': wireguard('admin', 'network_device.delete'),
  'GET /api/v1/device/network/:id/config': wireguard('admin', 'network_device.read_config'),

  // Activity log: admins read every entry; any other user reads the entries they made or that
  // concern their own account (the repo scopes the rows; docs/activity-log.md).
  'GET /api/v1/activity_log': rule('user', 'activity_log.read'),
  'GET /api/v1/activity_log/feed': rule('user', 'activity_log.read'),
  'GET /api/v1/activity_log/export': rule('user', 'activity_log.export'),

  'GET /api/v1/activity_log_stream': enterprise('admin', 'activity_log_stream.list'),
  'POST /api/v1/activity_log_stream': enterprise('admin', 'activity_log_stream.create'),
  'PUT /api/v1/activity_log_stream/:id': enterprise('admin', 'activity_log_stream.update'),
  'DELETE /api/v1/activity_log_stream/:id': enterprise('admin', 'activity_log_stream.delete'),
  // The access check: the deployed ACL's verdict for one packet (docs/acl.md).
  'GET /api/v1/acl/check': acl('admin', 'acl.check'),

  // ACL rules and aliases (spec §7, plus bulk discard; docs/acl.md).
  'GET /api/v1/acl/rule': acl('admin', 'acl_rule.list'),
  'POST /api/v1/acl/rule': acl('admin', 'acl_rule.create'),
  'PUT /api/v1/acl/rule/apply': acl('admin', 'acl_rule.apply'),
  'PUT /api/v1/acl/rule/discard': acl('admin', 'acl_rule.discard'),
  'GET /api/v1/acl/rule/:id': acl('admin', 'acl_rule.read'),
  'PUT /api/v1/acl/rule/:id': acl('admin', 'acl_rule.update'),
  'DELETE /api/v1/acl/rule/:id': acl('admin', 'acl_rule.delete'),
  'GET /api/v1/acl/alias': acl('admin', 'acl_alias.list'),
  'POST /api/v1/acl/alias': acl('admin', 'acl_alias.create'),
  'PUT /api/v1/acl/alias/apply': acl('admin', 'acl_alias.apply'),
  'PUT /api/v1/acl/alias/discard': acl('admin', 'acl_alias.discard'),
  'GET /api/v1/acl/alias/:id': acl('admin', 'acl_alias.read'),
  'PUT /api/v1/acl/alias/:id': acl('admin', 'acl_alias.update'),
  'DELETE /api/v1/acl/alias/:id': acl('admin', 'acl_alias.delete'),

  // The console's OpenID consent page (docs/openid.md); the provider's own endpoints are not /api/v1 routes.
  'POST /api/v1/openid/verify': { access: 'public', permission: 'openid.verify', module: 'openid' } as RouteRule,
  'POST /api/v1/oauth/authorize': { access: 'user', permission: 'openid.authorize', module: 'openid' } as RouteRule,
  'POST /api/v1/openid/keys/rotate': { access: 'admin', permission: 'openid.rotate_keys', module: 'openid' } as RouteRule,

  'GET /api/v1/webhook': webhooks('admin', 'webhook.list'),
  'POST /api/v1/webhook': webhooks('admin', 'webhook.create'),
  'GET /api/v1/webhook/:id': webhooks('admin', 'webhook.read'),
  'POST /api/v1/webhook/:id': webhooks('admin', 'webhook.set_state'),
  'PUT /api/v1/webhook/:id': webhooks('admin', 'webhook.update'),
  'DELETE /api/v1/webhook/:id': webhooks('admin', 'webhook.delete'),
  'GET /api/v1/webhook/:id/deliveries': webhooks('admin', 'webhook.read_deliveries'),
  'POST /api/v1/webhook/:id/test': webhooks('admin', 'webhook.test'),
  'POST /api/v1/webhook/:id/deliveries/:deliveryId/redeliver': webhooks('admin', 'webhook.redeliver'),

  'GET /api/v1/oauth': openidModule('admin', 'oauth_client.list'),
  'POST /api/v1/oauth': openidModule('admin', 'oauth_client.create'),
  'GET /api/v1/oauth/:id': openidModule('admin', 'oauth_client.read'),
  'PUT /api/v1/oauth/:id': openidModule('admin', 'oauth_client.update'),
  'POST /api/v1/oauth/:id': openidModule('admin', 'oauth_client.set_state'),
  'DELETE /api/v1/oauth/:id': openidModule('admin', 'oauth_client.delete'),
  'GET /api/v1/oauth/:id/secret': openidModule('admin', 'oauth_client.read_secret'),
  'POST /api/v1/oauth/:id/secret': openidModule('admin', 'oauth_client.regenerate_secret'),
  // A user's authorized apps (the grants they gave): the user or an admin.
  'GET /api/v1/oauth/apps/:username': openidModule('self_or_admin', 'authorized_app.list'),
  'DELETE /api/v1/user/:username/oauth_app/:client_id': openidModule('self_or_admin', 'authorized_app.revoke'),

  // Authentication keys (issue 13 §2). The authorized_keys read is public like a forge's `.keys`
  // (public keys are not secrets; sshd's AuthorizedKeysCommand has no session): docs/ssh-keys.md.
  'GET /api/v1/user/:username/auth_key': rule('self_or_admin', 'auth_key.list'),
  'POST /api/v1/user/:username/auth_key': rule('self_or_admin', 'auth_key.create'),
  'DELETE /api/v1/user/:username/auth_key/:id': rule('self_or_admin', 'auth_key.delete'),
  'POST /api/v1/user/:username/auth_key/:id/rename': rule('self_or_admin', 'auth_key.rename'),
  'GET /api/v1/user/:username/ssh_keys': rule('public', 'auth_key.read_authorized_keys'),
  // Personal API tokens (docs/api.md): the user's own, or any user's for an admin.
  'GET /api/v1/user/:username/api_token': rule('self_or_admin', 'api_token.list'),
  'POST /api/v1/user/:username/api_token': rule('self_or_admin', 'api_token.create'),
  'DELETE /api/v1/user/:username/api_token/:id': rule('self_or_admin', 'api_token.delete'),
  'POST /api/v1/user/:username/api_token/:id/rename': rule('self_or_admin', 'api_token.rename'),
  // Onboarding (docs/enrollment.md): an admin starts enrollment; the public flow's credential is the
  // one-time token (its own cookie, rate limited per address and per token).
  'POST /api/v1/user/:username/start_enrollment': rule('admin', 'enrollment.start'),
  // The token only activates a VPN client (POST /enrollment/client/desktop): a WireGuard route too.
  'POST /api/v1/user/:username/start_desktop': wireguard('admin', 'enrollment.start_desktop'),
  'POST /api/v1/enrollment/start': rule('public', 'enrollment.redeem'),
  'GET /api/v1/enrollment/session': rule('public', 'enrollment.read'),
  'POST /api/v1/enrollment/password': rule('public', 'enrollment.set_password'),
  'POST /api/v1/enrollment/device': wireguard('public', 'enrollment.add_device'),
  'POST /api/v1/enrollment/finish': rule('public', 'enrollment.finish'),
  // Password reset: the admin sends a link; "Forgot password?" asks for one (always 202).
  'POST /api/v1/user/:username/reset_password': rule('admin', 'password_reset.send'),
  'POST /api/v1/password_reset/request': rule('public', 'password_reset.request'),
  'POST /api/v1/password_reset/start': rule('public', 'password_reset.check'),
  'POST /api/v1/password_reset/finish': rule('public', 'password_reset.finish'),

  // YubiKey provisioning (docs/provisioning.md): admin routes, then the station routes.
  'GET /api/v1/worker': worker('admin', 'worker.list'),
  'GET /api/v1/worker/token': worker('admin', 'worker.read_token'),
  'POST /api/v1/worker/job': worker('admin', 'worker.create_job'),
  'GET /api/v1/worker/:id': worker('admin', 'worker.read_job'),
  'DELETE /api/v1/worker/:id': worker('admin', 'worker.delete'),
  'POST /api/v1/worker/register': worker('worker', 'worker.register'),
  'POST /api/v1/worker/poll': worker('worker', 'worker.poll'),
  'POST /api/v1/worker/job/:id/heartbeat': worker('worker', 'worker.job_heartbeat'),
  'POST /api/v1/worker/job/:id/result': worker('worker', 'worker.report_job'),
  'GET /api/v1/user/:username/yubikey': rule('self_or_admin', 'yubikey.list'),
  'DELETE /api/v1/user/:username/yubikey/:id': rule('self_or_admin', 'yubikey.delete'),
  'POST /api/v1/user/:username/yubikey/:id/rename': rule('self_or_admin', 'yubikey.rename'),
  'GET /api/v1/openid/provider': rule('admin', 'external_provider.read'),
  'POST /api/v1/openid/provider': rule('admin', 'external_provider.create'),
  'PUT /api/v1/openid/provider/:name': rule('admin', 'external_provider.update'),
  'DELETE /api/v1/openid/provider/:name': rule('admin', 'external_provider.delete'),
  'GET /api/v1/openid/auth_info': rule('public', 'auth.external_start'),
  'POST /api/v1/openid/callback': rule('public', 'auth.external_login'),
} as const satisfies Record<string, RouteRule>;

export type RouteKey = keyof typeof ROUTE_ACCESS;

export const routeKey = (method: string, url: string): string => `${method.toUpperCase()} ${url}`;

export function findRouteRule(method: string, url: string): RouteRule | undefined {
  return (ROUTE_ACCESS as Record<string, RouteRule>)[routeKey(method, url)];
}
