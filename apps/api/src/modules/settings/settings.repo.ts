import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { settings } from '#src/db/schema/index.js';

export type SettingsRow = typeof settings.$inferSelect;
const SINGLETON = 1;

export class SettingsRepo {
  constructor(private readonly db: Db) {}

  async get(): Promise<SettingsRow> {
    const [row] = await this.db.select().from(settings).where(eq(settings.id, SINGLETON)).limit(1);
    return row ?? this.ensure();
  }

  /** The row, locked until the transaction ends (created first when missing). */
  async getForUpdate(): Promise<SettingsRow> {
    await this.ensure();
    const [row] = await this.db.select().from(settings).where(eq(settings.id, SINGLETON)).for('update');
    if (!row) throw new Error('settings row missing');
    return row;
  }

  async ensure(): Promise<SettingsRow> {
    await this.db
      .insert(settings)
      .values({
        id: SINGLETON,
        instanceName: DEFAULT_SETTINGS.instance_name,
        mainLogoUrl: DEFAULT_SETTINGS.main_logo_url,
        navLogoUrl: DEFAULT_SETTINGS.nav_logo_url,
      })
      .onConflictDoNothing();
    const [row] = await this.db.select().from(settings).where(eq(settings.id, SINGLETON)).limit(1);
    if (!row) throw new Error('settings row missing');
    return row;
  }

  async update(values: Partial<Omit<SettingsRow, 'id' | 'updatedAt'>>): Promise<SettingsRow> {
    await this.ensure();
    const [row] = await this.db
      .update(settings)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(settings.id, SINGLETON))
      .returning();
    if (!row) throw new Error('settings row missing');
    return row;
  }
}
