import type { DirectorySyncBehavior, DirectorySyncTarget, ExternalProvider } from '@palisade/contracts';
import type { DirectoryCredentials } from './DirectorySyncSectionCredentials';

export type Values = DirectoryCredentials & {
  enable_directory_sync: boolean;
  sync_target: DirectorySyncTarget;
  sync_interval: string;
  user_behavior: DirectorySyncBehavior;
  admin_behavior: DirectorySyncBehavior;
  /** Comma-separated; blank = every group. */
  group_match: string;
};

export const valuesOf = (p: ExternalProvider): Values => ({
  enable_directory_sync: p.enable_directory_sync,
  sync_target: p.sync_target,
  sync_interval: String(p.sync_interval),
  user_behavior: p.user_behavior,
  admin_behavior: p.admin_behavior,
  group_match: p.group_match.join(', '),
  admin_email: p.admin_email,
  google_service_account_key: '',
  okta_client_id: p.okta_client_id,
  okta_private_jwk: '',
  jumpcloud_api_key: '',
});

/** The saved provider with this section's fields; a secret left empty keeps the stored one. */
export function directorySyncBody(p: ExternalProvider, v: Values) {
  const { client_secret_set, google_service_account_key_set, okta_private_jwk_set, jumpcloud_api_key_set, ...rest } = p;
  const secret = (name: 'google_service_account_key' | 'okta_private_jwk' | 'jumpcloud_api_key') => (v[name] ? { [name]: v[name] } : {});
  return {
    ...rest,
    enable_directory_sync: v.enable_directory_sync,
    sync_target: v.sync_target,
    sync_interval: v.sync_interval.trim() === '' ? Number.NaN : Number(v.sync_interval),
    user_behavior: v.user_behavior,
    admin_behavior: v.admin_behavior,
    group_match: v.group_match
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean),
    admin_email: v.admin_email,
    okta_client_id: v.okta_client_id,
    ...secret('google_service_account_key'),
    ...secret('okta_private_jwk'),
    ...secret('jumpcloud_api_key'),
  };
}
