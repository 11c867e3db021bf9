#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { EnvError, loadEnv } from '#src/env.js';
import { ArchiveError } from './archive.js';
import { backupCommand, type Output, restoreCommand } from './commands.js';

const USAGE = `Usage: palisade-admin <command>

  backup --out FILE [--without-key]   back up the database (and the key file) to FILE
  restore --in FILE                   restore FILE into an empty database / data directory

The database is the one Palisade itself uses: DATABASE_URL when set, otherwise the embedded
database in DATA_DIR (stop Palisade first: the embedded database has one user at a time).
Moving to PostgreSQL: back up the embedded instance, then restore with DATABASE_URL set.
See docs/operations.md, "Backup and restore".`;

const io: Output = {
  info: (line) => process.stdout.write(`${line}\n`),
  warn: (line) => process.stderr.write(`${line}\n`),
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { out: { type: 'string' }, in: { type: 'string' }, 'without-key': { type: 'boolean', default: false } },
    strict: true,
  });
  if (command === 'backup' && values.out) {
    await backupCommand(loadEnv(), values.out, { withoutKey: values['without-key'] === true }, io);
    return 0;
  }
  if (command === 'restore' && values.in) {
    await restoreCommand(loadEnv(), values.in, io);
    return 0;
  }
  io.warn(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ArchiveError || error instanceof EnvError) {
      io.warn(`palisade-admin: ${error.message}`);
      process.exit(1);
    }
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      io.warn(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    io.warn(`palisade-admin failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
