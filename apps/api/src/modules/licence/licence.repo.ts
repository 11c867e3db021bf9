import type { LicenceUsage } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';

/** The stored licence key (settings `licence_key`) and the usage the limits count. */
export class LicenceRepo {
  constructor(private readonly db: Db) {}

  async key(): Promise<string | null> {
    return (await new SettingsRepo(this.db).get()).licenceKey;
  }

  /** Stores (or with null removes) the key; returns the key it replaced. Run inside a transaction. */
  async replaceKey(key: string | null): Promise<string | null> {
    const repo = new SettingsRepo(this.db);
    const before = (await repo.getForUpdate()).licenceKey;
    await repo.update({ licenceKey: key });
    return before;
  }

  /** Active users (disabled accounts do not count), devices of every kind, locations, gateways. */
  async usage(): Promise<LicenceUsage> {
    const [row] = await queryRows<Record<keyof LicenceUsage, string | number>>(
      this.db,
      sql`select
            (select count(*) from users where is_active) as users,
            (select count(*) from devices) as devices,
            (select count(*) from locations) as locations,
            (select count(*) from gateways) as gateways`,
    );
    return {
      users: Number(row?.users ?? 0),
      devices: Number(row?.devices ?? 0),
      locations: Number(row?.locations ?? 0),
      gateways: Number(row?.gateways ?? 0),
    };
  }
}
