import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * The backup archive (docs/operations.md, "Backup and restore"; ADR-010): gzip of JSON lines.
 * Line 1 the manifest, then one line per row `["table", [column values as text or null]]` (tables
 * in the manifest's order, each table's rows together), then the trailer `{"end":true,"sha256":…}`
 * (SHA-256 of every line before it, newlines included). Written and read as streams, so memory
 * does not grow with the size of the database.
 */
export const ARCHIVE_FORMAT = 'palisade-backup';
export const ARCHIVE_FORMAT_VERSION = 1;

export interface ArchiveColumn {
  name: string;
  /** `format_type` of the column where it was saved (informative: restore uses the target's). */
  type: string;
}

export interface ArchiveTable {
  name: string;
  columns: ArchiveColumn[];
  rows: number;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  format_version: number;
  palisade_version: string;
  database: 'pglite' | 'postgresql';
  created_at: string;
  /** Applied migrations: how many, the newest one's tag and its journal timestamp. */
  migrations: { applied: number; tag: string; when: number | null };
  /** The key file's content when included; otherwise why not. */
  secret_key: { included: true; value: string } | { included: false; reason: 'without-key' | 'secret-key-variable' | 'none' };
  tables: ArchiveTable[];
  sequences: { name: string; value: string | null }[];
}

export type Row = (string | null)[];

export class ArchiveError extends Error {}

/** Writes an archive line by line; `close` adds the trailer. */
export class ArchiveWriter {
  readonly #gzip = createGzip();
  readonly #hash = createHash('sha256');
  readonly #done: Promise<void>;

  constructor(path: string) {
    this.#done = pipeline(this.#gzip, createWriteStream(path, { mode: 0o600 }));
    this.#done.catch(() => undefined);
  }

  /** Writes each value as one line. */
  async write(...values: unknown[]): Promise<void> {
    const text = values.map((v) => `${JSON.stringify(v)}\n`).join('');
    this.#hash.update(text);
    if (!this.#gzip.write(text)) await Promise.race([once(this.#gzip, 'drain'), this.#done]);
  }

  async close(): Promise<void> {
    this.#gzip.end(`${JSON.stringify({ end: true, sha256: this.#hash.digest('hex') })}\n`);
    await this.#done;
  }

  async abort(): Promise<void> {
    this.#gzip.destroy();
    await this.#done.catch(() => undefined);
  }
}

/** The lines of an archive, decompressed as they are read. */
async function* archiveLines(path: string): AsyncGenerator<string> {
  const file = createReadStream(path);
  const gunzip = createGunzip();
  file.on('error', (error) => gunzip.destroy(error));
  file.pipe(gunzip);
  gunzip.setEncoding('utf8');
  let rest = '';
  try {
    for await (const chunk of gunzip as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line !== '') yield line;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EACCES') {
      throw new ArchiveError(`cannot read ${path}: ${(error as Error).message}`);
    }
    throw new ArchiveError(`not a Palisade backup or corrupted (gzip: ${(error as Error).message})`);
  } finally {
    file.destroy();
  }
  if (rest !== '') yield rest;
}

function parseLine(line: string, what: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new ArchiveError(`the backup is corrupted (unreadable ${what})`);
  }
}

function checkManifest(manifest: Manifest): Manifest {
  if (manifest?.format !== ARCHIVE_FORMAT) throw new ArchiveError('not a Palisade backup (unknown format)');
  if (manifest.format_version !== ARCHIVE_FORMAT_VERSION) {
    throw new ArchiveError(
      `backup format version ${manifest.format_version} is not supported by this release (reads ${ARCHIVE_FORMAT_VERSION})`,
    );
  }
  if (!Array.isArray(manifest.tables) || !Array.isArray(manifest.sequences) || typeof manifest.migrations?.applied !== 'number') {
    throw new ArchiveError('the backup is corrupted (incomplete manifest)');
  }
  return manifest;
}

/**
 * Reads the whole archive once and checks it (gzip, checksum, every row fits its table, the row
 * counts of the manifest); returns the manifest. Nothing is kept in memory but one line.
 */
export async function verifyArchive(path: string): Promise<Manifest> {
  const hash = createHash('sha256');
  let manifest: Manifest | undefined;
  let previous: string | undefined;
  let problem: string | undefined;
  let counts: number[] = [];
  let position = 0;
  const checkRow = (line: string) => {
    if (!manifest || problem) return;
    const [name, values] = parseLine(line, 'row') as [string, Row];
    const tables = manifest.tables;
    // Tables in the manifest's order, each table's rows together: the position only moves forward.
    while (position < tables.length && tables[position]?.name !== name) position += 1;
    const table = tables[position];
    if (!table || !Array.isArray(values) || values.length !== table.columns.length) {
      problem = `a row of ${String(name)} does not fit the manifest`;
      return;
    }
    counts[position] = (counts[position] ?? 0) + 1;
  };
  for await (const line of archiveLines(path)) {
    if (previous !== undefined) {
      hash.update(`${previous}\n`);
      if (manifest === undefined) {
        manifest = checkManifest(parseLine(previous, 'manifest') as Manifest);
        counts = manifest.tables.map(() => 0);
      } else checkRow(previous);
    }
    previous = line;
  }
  const trailer = parseLine(previous ?? '', 'trailer') as { end?: boolean; sha256?: string } | null;
  if (!manifest || trailer?.end !== true || typeof trailer.sha256 !== 'string')
    throw new ArchiveError('the backup is truncated (no end record)');
  if (hash.digest('hex') !== trailer.sha256) throw new ArchiveError('the backup is corrupted (checksum mismatch)');
  const wrong = manifest.tables.find((t, i) => counts[i] !== t.rows);
  if (problem || wrong) {
    throw new ArchiveError(
      `the backup is corrupted (${problem ?? `${wrong?.name}: ${counts[manifest.tables.indexOf(wrong as ArchiveTable)]} rows, the manifest says ${wrong?.rows}`})`,
    );
  }
  return manifest;
}

/** The rows of a verified archive, in order, as `[table, values]`. */
export async function* archiveRows(path: string): AsyncGenerator<[string, Row]> {
  let first = true;
  for await (const line of archiveLines(path)) {
    if (first) {
      first = false;
      continue;
    }
    const value = parseLine(line, 'row');
    if (Array.isArray(value)) yield value as [string, Row];
  }
}
