import type { LogoKind } from '@palisade/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { brandingLogos } from '#src/db/schema/index.js';
import type { LogoFile } from './logo-image.js';

export type LogoRow = typeof brandingLogos.$inferSelect;

/** The uploaded logos (table branding_logos), one row per kind. */
export class BrandingRepo {
  constructor(private readonly db: Db) {}

  async get(kind: LogoKind): Promise<LogoRow | undefined> {
    const [row] = await this.db.select().from(brandingLogos).where(eq(brandingLogos.kind, kind)).limit(1);
    return row;
  }

  async put(kind: LogoKind, file: LogoFile): Promise<void> {
    const values = { contentType: file.contentType, hash: file.hash, dataBase64: file.bytes.toString('base64'), updatedAt: new Date() };
    await this.db
      .insert(brandingLogos)
      .values({ kind, ...values })
      .onConflictDoUpdate({ target: brandingLogos.kind, set: values });
  }

  async deleteAll(): Promise<void> {
    await this.db.delete(brandingLogos);
  }
}
