import type { MessageKey } from '@/i18n/en';

/** Spec §2: the settings screen's tabs, in order. */
export const SETTINGS_TABS = ['smtp', 'global', 'ldap', 'openid', 'enterprise', 'notifications', 'activity'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export const DEFAULT_SETTINGS_TAB: SettingsTab = 'global';

export const SETTINGS_TAB_LABELS: Record<SettingsTab, MessageKey> = {
  smtp: 'settings.tab.smtp',
  global: 'settings.tab.global',
  ldap: 'settings.tab.ldap',
  openid: 'settings.tab.openid',
  enterprise: 'settings.tab.enterprise',
  notifications: 'settings.tab.notifications',
  activity: 'settings.tab.activity',
};

const isSettingsTab = (value: unknown): value is SettingsTab => SETTINGS_TABS.includes(value as SettingsTab);

/** `?tab=` of the settings route; an unknown or missing tab means the default one. */
export function validateSettingsSearch(search: Record<string, unknown>): { tab?: SettingsTab } {
  return isSettingsTab(search.tab) && search.tab !== DEFAULT_SETTINGS_TAB ? { tab: search.tab } : {};
}
