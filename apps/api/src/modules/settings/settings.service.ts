import {
  DEFAULT_SETTINGS,
  type EnterpriseSettings,
  type LogoKind,
  type Module,
  type PatchEnterpriseSettingsBody,
  type PatchSettingsBody,
  SETTINGS_ID,
  type Settings,
  type SettingsEssentials,
} from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { fieldProblem, notFound } from '#src/lib/problem.js';
import { BrandingRepo, type LogoRow } from '#src/modules/branding/branding.repo.js';
import { inspectLogo, LOGO_EXTENSIONS } from '#src/modules/branding/logo-image.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { enrollmentValues, toEnrollmentSettings } from '#src/modules/enrollment/enrollment-settings.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { ExternalIdpRepo } from '#src/modules/external-idp/external-idp.repo.js';
import {
  checkGatewayNotifications,
  gatewayNotificationValues,
  toGatewayNotificationSettings,
} from '#src/modules/gateway-notifications/gateway-notifications.settings.js';
import { SettingsRepo, type SettingsRow } from './settings.repo.js';

/** Which modules are enabled (settings `<module>_enabled`); the access plugin gates routes on it. */
export type ModuleFlags = Record<Module, boolean>;

/**
 * How long another replica may keep serving a module after an admin disabled it elsewhere. The
 * process that writes the settings refreshes at once; others re-read within this time, so the
 * access check costs one query per process every few seconds, not one per request.
 */
export const MODULE_FLAGS_TTL_MS = 5_000;

const toModuleFlags = (row: SettingsRow): ModuleFlags => ({
  wireguard: row.wireguardEnabled,
  webhooks: row.webhooksEnabled,
  worker: row.workerEnabled,
  openid: row.openidEnabled,
});

/**
 * Whether outgoing mail is configured (GET /info `smtp_enabled`, modules/mail): the SMTP server,
 * port and sender address are set.
 */
export const isSmtpConfigured = (row: SettingsRow): boolean => row.smtpServer !== '' && row.smtpPort !== null && row.smtpSender !== '';

export const toSettings = (row: SettingsRow): Settings => ({
  instance_name: row.instanceName,
  main_logo_url: row.mainLogoUrl,
  nav_logo_url: row.navLogoUrl,
  wireguard_enabled: row.wireguardEnabled,
  webhooks_enabled: row.webhooksEnabled,
  worker_enabled: row.workerEnabled,
  openid_enabled: row.openidEnabled,
  default_network_view: row.defaultNetworkView,
  activity_log_retention_days: row.activityLogRetentionDays,
  egress_allow_cidrs: row.egressAllowCidrs,
  smtp_server: row.smtpServer,
  smtp_port: row.smtpPort,
  smtp_encryption: row.smtpEncryption,
  smtp_user: row.smtpUser,
  smtp_password_set: row.smtpPassword !== null,
  smtp_sender: row.smtpSender,
  ldap_enabled: row.ldapEnabled,
  ldap_url: row.ldapUrl,
  ldap_bind_username: row.ldapBindUsername,
  ldap_bind_password_set: row.ldapBindPassword !== null,
  ldap_member_attr: row.ldapMemberAttr,
  ldap_username_attr: row.ldapUsernameAttr,
  ldap_user_obj_class: row.ldapUserObjClass,
  ldap_user_auxiliary_obj_classes: row.ldapUserAuxiliaryObjClasses,
  ldap_user_search_base: row.ldapUserSearchBase,
  ldap_groupname_attr: row.ldapGroupnameAttr,
  ldap_group_search_base: row.ldapGroupSearchBase,
  ldap_group_member_attr: row.ldapGroupMemberAttr,
  ldap_group_obj_class: row.ldapGroupObjClass,
  ldap_sync_enabled: row.ldapSyncEnabled,
  ldap_authoritative_source: row.ldapAuthoritativeSource,
  ldap_sync_interval: row.ldapSyncInterval,
  ldap_use_starttls: row.ldapUseStarttls,
  ldap_tls_verify_cert: row.ldapTlsVerifyCert,
  ldap_tls_ca_cert: row.ldapTlsCaCert,
  ldap_uses_ad: row.ldapUsesAd,
  ldap_user_rdn_attr: row.ldapUserRdnAttr,
  ldap_sync_groups: row.ldapSyncGroups,
  ldap_removed_user_behavior: row.ldapRemovedUserBehavior,
  ...toEnrollmentSettings(row),
  ...toGatewayNotificationSettings(row),
});

/** The settings columns a write of the LDAP fields sets (the bind password sealed by `seal`). */
const ldapValues = (body: PatchSettingsBody, seal: (secret: string) => string | null): Partial<SettingsRow> => ({
  ...(body.ldap_enabled !== undefined && { ldapEnabled: body.ldap_enabled }),
  ...(body.ldap_url !== undefined && { ldapUrl: body.ldap_url }),
  ...(body.ldap_bind_username !== undefined && { ldapBindUsername: body.ldap_bind_username }),
  ...(body.ldap_bind_password !== undefined && { ldapBindPassword: seal(body.ldap_bind_password) }),
  ...(body.ldap_member_attr !== undefined && { ldapMemberAttr: body.ldap_member_attr }),
  ...(body.ldap_username_attr !== undefined && { ldapUsernameAttr: body.ldap_username_attr }),
  ...(body.ldap_user_obj_class !== undefined && { ldapUserObjClass: body.ldap_user_obj_class }),
  ...(body.ldap_user_auxiliary_obj_classes !== undefined && {
    ldapUserAuxiliaryObjClasses: [...new Set(body.ldap_user_auxiliary_obj_classes)],
  }),
  ...(body.ldap_user_search_base !== undefined && { ldapUserSearchBase: body.ldap_user_search_base }),
  ...(body.ldap_groupname_attr !== undefined && { ldapGroupnameAttr: body.ldap_groupname_attr }),
  ...(body.ldap_group_search_base !== undefined && { ldapGroupSearchBase: body.ldap_group_search_base }),
  ...(body.ldap_group_member_attr !== undefined && { ldapGroupMemberAttr: body.ldap_group_member_attr }),
  ...(body.ldap_group_obj_class !== undefined && { ldapGroupObjClass: body.ldap_group_obj_class }),
  ...(body.ldap_sync_enabled !== undefined && { ldapSyncEnabled: body.ldap_sync_enabled }),
  ...(body.ldap_authoritative_source !== undefined && { ldapAuthoritativeSource: body.ldap_authoritative_source }),
  ...(body.ldap_sync_interval !== undefined && { ldapSyncInterval: body.ldap_sync_interval }),
  ...(body.ldap_use_starttls !== undefined && { ldapUseStarttls: body.ldap_use_starttls }),
  ...(body.ldap_tls_verify_cert !== undefined && { ldapTlsVerifyCert: body.ldap_tls_verify_cert }),
  ...(body.ldap_tls_ca_cert !== undefined && { ldapTlsCaCert: body.ldap_tls_ca_cert }),
  ...(body.ldap_uses_ad !== undefined && { ldapUsesAd: body.ldap_uses_ad }),
  ...(body.ldap_user_rdn_attr !== undefined && { ldapUserRdnAttr: body.ldap_user_rdn_attr }),
  ...(body.ldap_sync_groups !== undefined && { ldapSyncGroups: [...new Set(body.ldap_sync_groups)] }),
  ...(body.ldap_removed_user_behavior !== undefined && { ldapRemovedUserBehavior: body.ldap_removed_user_behavior }),
});

/**
 * Rules across LDAP fields, checked on the settings as they would be after the write: enabled
 * LDAP (sign-in or sync) needs a URL and a user search base; StartTLS is for `ldap://` only.
 */
function checkLdap(row: SettingsRow): void {
  const enabled = row.ldapEnabled || row.ldapSyncEnabled;
  if (enabled && row.ldapUrl === '') throw fieldProblem('ldap_url', 'required', 'Enter the LDAP server URL to enable LDAP.');
  if (enabled && row.ldapUserSearchBase === '')
    throw fieldProblem('ldap_user_search_base', 'required', 'Enter the user search base to enable LDAP.');
  if (row.ldapUseStarttls && /^ldaps:/i.test(row.ldapUrl))
    throw fieldProblem('ldap_use_starttls', 'invalid', 'StartTLS upgrades a plain ldap:// connection; an ldaps:// URL is TLS already.');
}

export const toEnterpriseSettings = (row: SettingsRow): EnterpriseSettings => ({
  admin_device_management: row.adminDeviceManagement,
  disable_all_traffic: row.disableAllTraffic,
  disable_manual_config: row.disableManualConfig,
});

export class SettingsService {
  readonly #repo: SettingsRepo;
  #flags: { value: ModuleFlags; readAt: number } | undefined;
  #flagsLoading: Promise<ModuleFlags> | undefined;
  #writes = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    /** Seals the SMTP password. */
    private readonly secrets?: SecretBox,
  ) {
    this.#repo = new SettingsRepo(db);
  }

  async get(): Promise<Settings> {
    return toSettings(await this.#repo.get());
  }

  /** GET /settings_essentials: the public settings plus the login page's external sign-in button. */
  async essentials(): Promise<SettingsEssentials> {
    const [values, provider] = await Promise.all([this.get(), new ExternalIdpRepo(this.db).current()]);
    return { ...values, external_login_button: provider ? provider.displayName : null };
  }

  /** The module flags from memory (re-read after MODULE_FLAGS_TTL_MS; one read at a time). */
  moduleFlags(): ModuleFlags | Promise<ModuleFlags> {
    const cached = this.#flags;
    if (cached && this.now() - cached.readAt < MODULE_FLAGS_TTL_MS) return cached.value;
    this.#flagsLoading ??= this.#loadFlags().finally(() => {
      this.#flagsLoading = undefined;
    });
    return this.#flagsLoading;
  }

  async #loadFlags(): Promise<ModuleFlags> {
    const writes = this.#writes;
    const row = await this.#repo.get();
    // A write in this process while the read was in flight is newer than what the read saw.
    if (writes === this.#writes) this.#remember(row);
    return toModuleFlags(row);
  }

  async isSmtpEnabled(): Promise<boolean> {
    return isSmtpConfigured(await this.#repo.get());
  }

  #remember(row: SettingsRow): SettingsRow {
    this.#flags = { value: toModuleFlags(row), readAt: this.now() };
    return row;
  }

  async update(actor: SignedInActor, body: PatchSettingsBody): Promise<Settings> {
    const row = await this.#change(
      actor,
      'settings.modified',
      toSettings,
      {
        ...(body.instance_name !== undefined && { instanceName: body.instance_name }),
        ...(body.main_logo_url !== undefined && { mainLogoUrl: body.main_logo_url }),
        ...(body.nav_logo_url !== undefined && { navLogoUrl: body.nav_logo_url }),
        ...(body.wireguard_enabled !== undefined && { wireguardEnabled: body.wireguard_enabled }),
        ...(body.webhooks_enabled !== undefined && { webhooksEnabled: body.webhooks_enabled }),
        ...(body.worker_enabled !== undefined && { workerEnabled: body.worker_enabled }),
        ...(body.openid_enabled !== undefined && { openidEnabled: body.openid_enabled }),
        ...(body.default_network_view !== undefined && { defaultNetworkView: body.default_network_view }),
        ...(body.activity_log_retention_days !== undefined && { activityLogRetentionDays: body.activity_log_retention_days }),
        ...(body.egress_allow_cidrs !== undefined && { egressAllowCidrs: [...new Set(body.egress_allow_cidrs)] }),
        ...(body.smtp_server !== undefined && { smtpServer: body.smtp_server }),
        ...(body.smtp_port !== undefined && { smtpPort: body.smtp_port }),
        ...(body.smtp_encryption !== undefined && { smtpEncryption: body.smtp_encryption }),
        ...(body.smtp_user !== undefined && { smtpUser: body.smtp_user }),
        ...(body.smtp_password !== undefined && { smtpPassword: this.#seal(body.smtp_password) }),
        ...(body.smtp_sender !== undefined && { smtpSender: body.smtp_sender }),
        ...ldapValues(body, (secret) => this.#seal(secret)),
        ...enrollmentValues(body),
        ...gatewayNotificationValues(body),
      },
      [...(body.smtp_password ? ['smtp_password'] : []), ...(body.ldap_bind_password ? ['ldap_bind_password'] : [])],
      (row) => {
        checkLdap(row);
        checkGatewayNotifications(body, row);
      },
    );
    return toSettings(row);
  }

  /** '' removes the secret (SMTP or LDAP bind password); anything else is stored sealed. */
  #seal(password: string): string | null {
    if (password === '') return null;
    if (!this.secrets) throw new Error('settings service has no secret box for the SMTP and LDAP passwords');
    return this.secrets.encrypt(password);
  }

  /**
   * Writes `values` and records `type` with the keys whose value changed (in `view`'s terms), in
   * one transaction that holds the row, so concurrent writers each report their own change.
   * `written` names keys changed although the view cannot show it (a new SMTP password).
   */
  async #change<T extends object>(
    actor: SignedInActor,
    type: 'settings.modified' | 'enterprise_settings.modified',
    view: (row: SettingsRow) => T,
    values: Parameters<SettingsRepo['update']>[0],
    written: string[] = [],
    /** Throws (a 400) when the row after the write breaks a rule; the transaction rolls back. */
    check?: (row: SettingsRow) => void,
    /** More writes in the same transaction (the uploaded logos). */
    alsoWrite?: (tx: Db) => Promise<void>,
  ): Promise<SettingsRow> {
    const row = await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const repo = new SettingsRepo(tx);
      const before = view(await repo.getForUpdate());
      const updated = await repo.update(values);
      check?.(updated);
      await alsoWrite?.(tx);
      const after = view(updated);
      const changed = Object.keys(after).filter((k) => JSON.stringify(after[k as keyof T]) !== JSON.stringify(before[k as keyof T]));
      const keys = [...changed, ...written];
      if (keys.length > 0) await recordEvent(tx, { type, actor: userActor(actor), object: { type: 'settings' }, details: { keys } });
      return updated;
    });
    this.#writes += 1;
    this.#remember(row);
    return row;
  }

  /**
   * PUT /settings/logo/{kind}: checks and stores an uploaded logo and points the setting at its
   * URL on this server (docs/branding.md).
   */
  async uploadLogo(actor: SignedInActor, kind: LogoKind, base64: string): Promise<Settings> {
    const file = await inspectLogo(kind, Buffer.from(base64, 'base64'));
    const url = `/api/v1/branding/logo/${kind}/${file.hash}.${LOGO_EXTENSIONS[file.contentType]}`;
    const values = kind === 'main' ? { mainLogoUrl: url } : { navLogoUrl: url };
    const row = await this.#change(actor, 'settings.modified', toSettings, values, [], undefined, (tx) =>
      new BrandingRepo(tx).put(kind, file),
    );
    return toSettings(row);
  }

  /** PUT /settings/{id}: the default instance name and logos again; uploaded logos are deleted. */
  async restoreBranding(actor: SignedInActor, id: number): Promise<Settings> {
    if (id !== SETTINGS_ID)
      throw notFound('settings.not_found', `There are no settings with id ${id}; the settings row is ${SETTINGS_ID}.`);
    const defaults = {
      instanceName: DEFAULT_SETTINGS.instance_name,
      mainLogoUrl: DEFAULT_SETTINGS.main_logo_url,
      navLogoUrl: DEFAULT_SETTINGS.nav_logo_url,
    };
    const row = await this.#change(actor, 'settings.modified', toSettings, defaults, [], undefined, (tx) =>
      new BrandingRepo(tx).deleteAll(),
    );
    return toSettings(row);
  }

  /** GET /branding/logo/{kind}/{file}: the uploaded logo, when `file` names the current one. */
  async logo(kind: LogoKind, file: string): Promise<LogoRow> {
    const row = await new BrandingRepo(this.db).get(kind);
    if (!row || file !== `${row.hash}.${LOGO_EXTENSIONS[row.contentType]}`) throw notFound('logo.not_found', 'There is no such logo.');
    return row;
  }

  async getEnterprise(): Promise<EnterpriseSettings> {
    return toEnterpriseSettings(await this.#repo.get());
  }

  async updateEnterprise(actor: SignedInActor, body: PatchEnterpriseSettingsBody): Promise<EnterpriseSettings> {
    const row = await this.#change(actor, 'enterprise_settings.modified', toEnterpriseSettings, {
      ...(body.admin_device_management !== undefined && { adminDeviceManagement: body.admin_device_management }),
      ...(body.disable_all_traffic !== undefined && { disableAllTraffic: body.disable_all_traffic }),
      ...(body.disable_manual_config !== undefined && { disableManualConfig: body.disable_manual_config }),
    });
    return toEnterpriseSettings(row);
  }
}
