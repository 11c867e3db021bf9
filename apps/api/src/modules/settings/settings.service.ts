import type { EnterpriseSettings, PatchEnterpriseSettingsBody, PatchSettingsBody, Settings } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { SettingsRepo, type SettingsRow } from './settings.repo.js';

export const toSettings = (row: SettingsRow): Settings => ({
  instance_name: row.instanceName,
  main_logo_url: row.mainLogoUrl,
  nav_logo_url: row.navLogoUrl,
  wireguard_enabled: row.wireguardEnabled,
  webhooks_enabled: row.webhooksEnabled,
  worker_enabled: row.workerEnabled,
  openid_enabled: row.openidEnabled,
});

export const toEnterpriseSettings = (row: SettingsRow): EnterpriseSettings => ({
  admin_device_management: row.adminDeviceManagement,
  disable_all_traffic: row.disableAllTraffic,
  disable_manual_config: row.disableManualConfig,
});

export class SettingsService {
  readonly #repo: SettingsRepo;

  constructor(db: Db) {
    this.#repo = new SettingsRepo(db);
  }

  async get(): Promise<Settings> {
    return toSettings(await this.#repo.get());
  }

  async update(body: PatchSettingsBody): Promise<Settings> {
    const row = await this.#repo.update({
      ...(body.instance_name !== undefined && { instanceName: body.instance_name }),
      ...(body.main_logo_url !== undefined && { mainLogoUrl: body.main_logo_url }),
      ...(body.nav_logo_url !== undefined && { navLogoUrl: body.nav_logo_url }),
      ...(body.wireguard_enabled !== undefined && { wireguardEnabled: body.wireguard_enabled }),
      ...(body.webhooks_enabled !== undefined && { webhooksEnabled: body.webhooks_enabled }),
      ...(body.worker_enabled !== undefined && { workerEnabled: body.worker_enabled }),
      ...(body.openid_enabled !== undefined && { openidEnabled: body.openid_enabled }),
    });
    return toSettings(row);
  }

  async getEnterprise(): Promise<EnterpriseSettings> {
    return toEnterpriseSettings(await this.#repo.get());
  }

  async updateEnterprise(body: PatchEnterpriseSettingsBody): Promise<EnterpriseSettings> {
    const row = await this.#repo.update({
      ...(body.admin_device_management !== undefined && { adminDeviceManagement: body.admin_device_management }),
      ...(body.disable_all_traffic !== undefined && { disableAllTraffic: body.disable_all_traffic }),
      ...(body.disable_manual_config !== undefined && { disableManualConfig: body.disable_manual_config }),
    });
    return toEnterpriseSettings(row);
  }
}
