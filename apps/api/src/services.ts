import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { ApiTokensService } from '#src/modules/api-tokens/api-tokens.service.js';
import { AuthService } from '#src/modules/auth/auth.service.js';
import { DevicesService } from '#src/modules/devices/devices.service.js';
import { NetworkDevicesService } from '#src/modules/devices/network-devices.service.js';
import { GatewaysService, type GrpcUrlOptions } from '#src/modules/gateways/gateways.service.js';
import { GroupsService } from '#src/modules/groups/groups.service.js';
import { ldapPasswords } from '#src/modules/ldap/sync-password.js';
import { LdapSignIn } from '#src/modules/ldap/ldap-sign-in.js';
import { MailService, type MailServiceOptions } from '#src/modules/mail/mail.service.js';
import { NetworksService } from '#src/modules/networks/networks.service.js';
import { SettingsService } from '#src/modules/settings/settings.service.js';
import { StatsService } from '#src/modules/stats/stats.service.js';
import { UsersService } from '#src/modules/users/users.service.js';

export interface Services {
  auth: AuthService;
  users: UsersService;
  groups: GroupsService;
  settings: SettingsService;
  networks: NetworksService;
  devices: DevicesService;
  networkDevices: NetworkDevicesService;
  gateways: GatewaysService;
  stats: StatsService;
  /** The one mail service: every sender queues through it (modules/mail). */
  mail: MailService;
  /** Personal API tokens, and the Bearer authentication of requests (plugins/session.ts). */
  apiTokens: ApiTokensService;
}

export interface ServiceOptions {
  sessionTtlMs: number;
  secrets: SecretBox;
  publicUrl: string | undefined;
  grpc?: GrpcUrlOptions;
  mail?: MailServiceOptions;
}

export function createServices(db: Db, options: ServiceOptions): Services {
  const settings = new SettingsService(db, Date.now, options.secrets);
  return {
    auth: new AuthService(db, options.sessionTtlMs, new LdapSignIn(db, options.secrets)),
    users: new UsersService(db, ldapPasswords(db, options.secrets)),
    groups: new GroupsService(db),
    settings,
    networks: new NetworksService(db, options.secrets),
    devices: new DevicesService(db, settings),
    networkDevices: new NetworkDevicesService(db, settings, options.publicUrl),
    gateways: new GatewaysService(
      db,
      options.secrets,
      options.grpc ?? { publicGrpcUrl: undefined, publicUrl: options.publicUrl, grpcPort: 50055, tls: false },
    ),
    stats: new StatsService(db),
    mail: new MailService(db, options.secrets, options.mail),
    apiTokens: new ApiTokensService(db),
  };
}
