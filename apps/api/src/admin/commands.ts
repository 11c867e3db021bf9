import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import type { Env } from '#src/env.js';
import { secureDataDir } from '#src/lib/data-dir.js';
import { ArchiveError, type Manifest, verifyArchive } from './archive.js';
import { createBackup } from './backup.repo.js';
import { checkMigrationLevel, restoreBackup } from './restore.repo.js';

/** The `palisade-admin` commands (docs/operations.md, "Backup and restore"). */

export type AdminEnv = Pick<Env, 'DATA_DIR' | 'DATABASE_URL' | 'SECRET_KEY'>;

export interface Output {
  info(line: string): void;
  warn(line: string): void;
}

const KEY_WARNING =
  'WARNING: this backup does NOT contain the secret key. Encrypted secrets (location private keys, gateway tokens, SMTP and other passwords) can only be read with the same key: keep SECRET_KEY (or the key file DATA_DIR/secret.key) safe and separately.';

const keyFile = (dataDir: string) => join(resolve(dataDir), 'secret.key');
const pgdata = (dataDir: string) => join(resolve(dataDir), 'pgdata');

export async function backupCommand(env: AdminEnv, out: string, options: { withoutKey: boolean }, io: Output): Promise<Manifest> {
  if (!env.DATABASE_URL && !existsSync(join(pgdata(env.DATA_DIR), 'PG_VERSION'))) {
    throw new ArchiveError(`no embedded database in ${pgdata(env.DATA_DIR)} and no DATABASE_URL: nothing to back up`);
  }
  // The embedded database has one user at a time; a running Palisade holds postmaster.pid.
  if (!env.DATABASE_URL && existsSync(join(pgdata(env.DATA_DIR), 'postmaster.pid'))) {
    throw new ArchiveError(
      `the embedded database is in use (${join(pgdata(env.DATA_DIR), 'postmaster.pid')} exists): stop Palisade first. If it is not running (it was killed), start and stop it once, then back up.`,
    );
  }
  let secretKey: Manifest['secret_key'] = { included: false, reason: 'none' };
  if (env.SECRET_KEY) secretKey = { included: false, reason: 'secret-key-variable' };
  else if (existsSync(keyFile(env.DATA_DIR))) {
    secretKey = options.withoutKey
      ? { included: false, reason: 'without-key' }
      : { included: true, value: (await readFile(keyFile(env.DATA_DIR), 'utf8')).trim() };
  }
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 2 });
  let manifest: Manifest;
  try {
    manifest = await createBackup(handle, out, { secretKey });
  } finally {
    await handle.close();
  }
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  io.info(
    `Backup written to ${out}: ${manifest.tables.length} tables, ${rows} rows, ${manifest.database} database at migration ${manifest.migrations.tag}.`,
  );
  if (secretKey.included) io.info('The backup contains the secret key file: store it as carefully as the key itself.');
  else io.warn(KEY_WARNING);
  return manifest;
}

/**
 * Restores into an empty target: the PostgreSQL database of DATABASE_URL, or else a data
 * directory without an embedded database. Everything is checked before anything is written.
 */
export async function restoreCommand(env: AdminEnv, input: string, io: Output): Promise<Manifest> {
  const manifest = await verifyArchive(input);
  checkMigrationLevel(manifest);
  const key = manifest.secret_key;
  if (key.included) {
    if (env.SECRET_KEY && env.SECRET_KEY !== key.value) {
      throw new ArchiveError(
        'SECRET_KEY is set and differs from the key in the backup: unset it (the key file is restored) or set it to the original key',
      );
    }
    const existing = existsSync(keyFile(env.DATA_DIR)) ? (await readFile(keyFile(env.DATA_DIR), 'utf8')).trim() : undefined;
    if (existing !== undefined && existing !== key.value && !env.SECRET_KEY) {
      throw new ArchiveError(
        `${keyFile(env.DATA_DIR)} exists and differs from the key in the backup: restore into an empty data directory`,
      );
    }
  }
  const embedded = !env.DATABASE_URL;
  if (embedded && existsSync(pgdata(env.DATA_DIR))) {
    throw new ArchiveError(`${pgdata(env.DATA_DIR)} exists: restore only into an empty data directory`);
  }
  if (embedded) await secureDataDir(env.DATA_DIR);
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 2 });
    await restoreBackup(handle, input, manifest);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    handle = undefined;
    // An embedded database this command created is removed again: the data directory stays empty.
    if (embedded) await rm(pgdata(env.DATA_DIR), { recursive: true, force: true });
    throw error;
  } finally {
    await handle?.close();
  }
  if (key.included && !env.SECRET_KEY && !existsSync(keyFile(env.DATA_DIR))) {
    await secureDataDir(env.DATA_DIR);
    await writeFile(keyFile(env.DATA_DIR), `${key.value}\n`, { mode: 0o600 });
  }
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  io.info(
    `Restored ${rows} rows from ${input} (${manifest.database}, ${manifest.created_at}) into ${embedded ? `the embedded database in ${pgdata(env.DATA_DIR)}` : 'the PostgreSQL database of DATABASE_URL'}.`,
  );
  if (!key.included) {
    io.warn(
      `WARNING: the backup holds no secret key (${key.reason}). Start Palisade with the original SECRET_KEY (or put the original key file at ${keyFile(env.DATA_DIR)}); otherwise encrypted secrets cannot be read.`,
    );
  }
  return manifest;
}
