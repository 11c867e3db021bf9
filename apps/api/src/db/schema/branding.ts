import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Uploaded logos (docs/branding.md), one per kind: kept in the database so every API replica
 * serves the same file. `hash` (the first 16 hex digits of the SHA-256 of the file) names the
 * file in its URL, so a new upload gets a new URL and browsers may cache each one forever.
 */
export const brandingLogos = pgTable('branding_logos', {
  kind: text('kind', { enum: ['main', 'nav'] }).primaryKey(),
  contentType: text('content_type', { enum: ['image/png', 'image/webp', 'image/svg+xml'] }).notNull(),
  hash: text('hash').notNull(),
  /** The file as stored (an SVG after sanitising), base64. */
  dataBase64: text('data_base64').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
