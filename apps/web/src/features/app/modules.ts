import type { SettingsEssentials } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { essentialsQueryOptions } from './app.queries';

/** Console modules an administrator can switch off in the settings (Global tab). */
export type ConsoleModule = 'wireguard' | 'webhooks' | 'worker' | 'openid';

const FLAGS: Record<ConsoleModule, keyof SettingsEssentials> = {
  wireguard: 'wireguard_enabled',
  webhooks: 'webhooks_enabled',
  worker: 'worker_enabled',
  openid: 'openid_enabled',
};

/**
 * Screens that belong to a module, by path: while it is off they show the "module disabled" page
 * (its API routes answer 404 `module.disabled`). `/users/<name>/add-device` is a device screen.
 */
const MODULE_PATHS: Record<ConsoleModule, readonly RegExp[]> = {
  wireguard: [
    /^\/locations(\/|$)/,
    /^\/overview(\/|$)/,
    /^\/network-devices(\/|$)/,
    /^\/connected-users(\/|$)/,
    /^\/acl(\/|$)/,
    /^\/users\/[^/]+\/add-device\/?$/,
  ],
  webhooks: [/^\/webhooks(\/|$)/],
  worker: [/^\/provisioners(\/|$)/],
  openid: [/^\/openid-apps(\/|$)/],
};

export function isModuleEnabled(settings: SettingsEssentials | undefined, module: ConsoleModule): boolean {
  // Until the settings are known, nothing is hidden (the API still refuses a disabled module).
  return settings ? settings[FLAGS[module]] !== false : true;
}

/** The switched-off module a path belongs to, if any. */
export function disabledModuleOf(settings: SettingsEssentials | undefined, pathname: string): ConsoleModule | undefined {
  return (Object.keys(MODULE_PATHS) as ConsoleModule[]).find(
    (module) => !isModuleEnabled(settings, module) && MODULE_PATHS[module].some((pattern) => pattern.test(pathname)),
  );
}

/** Subscribes to the essential settings, so a change (saved here or seen by a `module.disabled` answer) shows at once. */
export function useEssentials(): SettingsEssentials | undefined {
  return useQuery(essentialsQueryOptions).data;
}

export function useModuleEnabled(module: ConsoleModule): boolean {
  return isModuleEnabled(useEssentials(), module);
}
