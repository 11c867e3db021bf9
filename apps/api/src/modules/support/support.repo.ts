import { readFileSync } from 'node:fs';
import { SUPPORT_REDACTED } from '@palisade/contracts';
import { asc, count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DatabaseHandle } from '#src/db/client.js';
import { findMigrationsFolder } from '#src/db/migrate.js';
import { devices, externalProviders, gateways, locations, settings, users } from '#src/db/schema/index.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';

/**
 * Which columns of the tables dumped into support data hold secrets (docs/support.md). A column
 * whose name looks secret (SECRET_SHAPED) must be listed either as `secret` or as `notSecret`:
 * redaction.test.ts fails when a new one is in neither list, and until it is listed the dump
 * redacts it anyway. Sealed values (`v1.…`) are redacted in any column.
 */
export const SECRET_SHAPED = /pass|secret|token|key|credential|jwk|private|licen[cs]e|cert|cookie|session/i;

export interface DumpedTable {
  table: PgTable;
  /** Database column names whose value is a secret. */
  secret: readonly string[];
  /** Secret-looking column names that are not secret (why, in a comment). */
  notSecret: readonly string[];
}

export const DUMPED_TABLES = {
  settings: {
    table: settings,
    // The licence key is signed, not secret, but it is the customer's: it stays out of reports.
    secret: ['smtp_password', 'ldap_bind_password', 'licence_key'],
    // A CA certificate is public by nature; the others only look secret by name.
    notSecret: ['ldap_tls_ca_cert', 'ldap_tls_verify_cert', 'enrollment_token_lifetime_hours'],
  },
  external_providers: {
    table: externalProviders,
    secret: ['client_secret', 'google_service_account_key', 'okta_private_jwk', 'jumpcloud_api_key'],
    notSecret: [],
  },
} as const satisfies Record<string, DumpedTable>;

const isSealed = (value: unknown) => typeof value === 'string' && /^v1\.[A-Za-z0-9_-]{16,}/.test(value);

/** One row as support data shows it: database column names, secrets replaced by the marker. */
export function redactRow(spec: DumpedTable, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(spec.table))) {
    const value = row[key];
    const name = column.name;
    const secret = spec.secret.includes(name) || (SECRET_SHAPED.test(name) && !spec.notSecret.includes(name)) || isSealed(value);
    if (secret) out[name] = value === null || value === undefined || value === '' ? '' : SUPPORT_REDACTED;
    else out[name] = value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : (value ?? null);
  }
  return out;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export interface MigrationLevel {
  applied: number;
  /** The newest applied migration's tag (e.g. `0030_…`), or '' when none. */
  level: string;
}

/** What support data reads from the database (modules/support, docs/support.md). */
export class SupportRepo {
  constructor(private readonly database: DatabaseHandle) {}

  private get db() {
    return this.database.db;
  }

  async serverVersion(): Promise<string> {
    const [row] = rowsOf<{ server_version: string }>(await this.db.execute(sql`show server_version`));
    return row?.server_version ?? '';
  }

  /** Drizzle's own record of applied migrations, named by the journal of this build. */
  async migrationLevel(): Promise<MigrationLevel> {
    const [row] = rowsOf<{ applied: number | string; newest: number | string | null }>(
      await this.db.execute(sql`select count(*) as applied, max(created_at) as newest from drizzle.__drizzle_migrations`),
    );
    const applied = Number(row?.applied ?? 0);
    const journal = JSON.parse(readFileSync(`${findMigrationsFolder()}/meta/_journal.json`, 'utf8')) as {
      entries: { when: number; tag: string }[];
    };
    const newest = row?.newest === null || row?.newest === undefined ? undefined : Number(row.newest);
    const entry = journal.entries.find((e) => e.when === newest);
    return { applied, level: entry?.tag ?? (newest === undefined ? '' : String(newest)) };
  }

  /** The settings row, secrets redacted. */
  async settings(): Promise<Record<string, unknown>> {
    return redactRow(DUMPED_TABLES.settings, (await new SettingsRepo(this.db).get()) as unknown as Record<string, unknown>);
  }

  /** The external providers, secrets redacted. */
  async externalProviders(): Promise<Record<string, unknown>[]> {
    const rows = await this.db.select().from(externalProviders).orderBy(asc(externalProviders.id));
    return rows.map((row) => redactRow(DUMPED_TABLES.external_providers, row));
  }

  async counts(): Promise<{ users: number; userDevices: number; networkDevices: number; locations: number }> {
    const one = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);
    const [userCount, userDevices, networkDevices, locationCount] = await Promise.all([
      one(this.db.select({ n: count() }).from(users)),
      one(this.db.select({ n: count() }).from(devices).where(eq(devices.kind, 'user'))),
      one(this.db.select({ n: count() }).from(devices).where(eq(devices.kind, 'network'))),
      one(this.db.select({ n: count() }).from(locations)),
    ]);
    return { users: userCount, userDevices, networkDevices, locations: locationCount };
  }

  gateways() {
    return this.db
      .select({
        id: gateways.id,
        name: gateways.name,
        locationId: gateways.locationId,
        locationName: locations.name,
        hostname: gateways.hostname,
        version: gateways.version,
        streamId: gateways.streamId,
        state: gateways.state,
        connectedAt: gateways.connectedAt,
        disconnectedAt: gateways.disconnectedAt,
        lastSeenAt: gateways.lastSeenAt,
      })
      .from(gateways)
      .innerJoin(locations, eq(locations.id, gateways.locationId))
      .orderBy(asc(gateways.id));
  }
}
