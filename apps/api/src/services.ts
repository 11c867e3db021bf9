import type { Db } from '#src/db/client.js';
import { AuthService } from '#src/modules/auth/auth.service.js';
import { GroupsService } from '#src/modules/groups/groups.service.js';
import { SettingsService } from '#src/modules/settings/settings.service.js';
import { UsersService } from '#src/modules/users/users.service.js';

export interface Services {
  auth: AuthService;
  users: UsersService;
  groups: GroupsService;
  settings: SettingsService;
}

export function createServices(db: Db, options: { sessionTtlMs: number }): Services {
  return {
    auth: new AuthService(db, options.sessionTtlMs),
    users: new UsersService(db),
    groups: new GroupsService(db),
    settings: new SettingsService(db),
  };
}
