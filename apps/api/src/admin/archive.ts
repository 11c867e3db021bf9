import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * The backup archive (docs/operations.md, "Backup and restore"; ADR-008): gzip of JSON lines.
 * Line 1 the manifest, then one line per row `["table", [column values as text or null]]`, then
 * the trailer `{"end":true,"sha256":…}` (SHA-256 of every line before it, newlines included).
 */
export const ARCHIVE_FORMAT = 'palisade-backup';
export const ARCHIVE_FORMAT_VERSION = 1;

export interface ArchiveColumn {
  name: string;
  /** `format_type` of the column, used to cast the text value back on restore. */
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

export interface Archive {
  manifest: Manifest;
  rows: Map<string, (string | null)[][]>;
}

export class ArchiveError extends Error {}

export function encodeArchive(archive: Archive): Buffer {
  const lines: string[] = [JSON.stringify(archive.manifest)];
  for (const table of archive.manifest.tables) {
    for (const row of archive.rows.get(table.name) ?? []) lines.push(JSON.stringify([table.name, row]));
  }
  const body = `${lines.join('\n')}\n`;
  const sha256 = createHash('sha256').update(body).digest('hex');
  return gzipSync(`${body}${JSON.stringify({ end: true, sha256 })}\n`);
}

/** Reads and checks a whole archive; throws ArchiveError with what is wrong. */
export function decodeArchive(data: Buffer): Archive {
  let text: string;
  try {
    text = gunzipSync(data).toString('utf8');
  } catch (error) {
    throw new ArchiveError(`not a Palisade backup or corrupted (gzip: ${(error as Error).message})`);
  }
  const lastBreak = text.lastIndexOf('\n', text.length - 2);
  const body = text.slice(0, lastBreak + 1);
  const trailer = parseLine(text.slice(lastBreak + 1).trim(), 'trailer') as { end?: boolean; sha256?: string };
  if (trailer.end !== true || typeof trailer.sha256 !== 'string') throw new ArchiveError('the backup is truncated (no end record)');
  if (createHash('sha256').update(body).digest('hex') !== trailer.sha256) {
    throw new ArchiveError('the backup is corrupted (checksum mismatch)');
  }
  const lines = body.split('\n').filter((l) => l !== '');
  const manifest = parseLine(lines[0] ?? '', 'manifest') as Manifest;
  if (manifest.format !== ARCHIVE_FORMAT) throw new ArchiveError('not a Palisade backup (unknown format)');
  if (manifest.format_version !== ARCHIVE_FORMAT_VERSION) {
    throw new ArchiveError(
      `backup format version ${manifest.format_version} is not supported by this release (reads ${ARCHIVE_FORMAT_VERSION})`,
    );
  }
  if (!Array.isArray(manifest.tables) || !Array.isArray(manifest.sequences) || typeof manifest.migrations?.applied !== 'number') {
    throw new ArchiveError('the backup is corrupted (incomplete manifest)');
  }
  const width = new Map(manifest.tables.map((t) => [t.name, t.columns.length]));
  const rows = new Map<string, (string | null)[][]>(manifest.tables.map((t) => [t.name, []]));
  for (const line of lines.slice(1)) {
    const [table, values] = parseLine(line, 'row') as [string, (string | null)[]];
    const list = rows.get(table);
    if (!list || !Array.isArray(values) || values.length !== width.get(table)) {
      throw new ArchiveError(`the backup is corrupted (a row of ${String(table)} does not fit its table)`);
    }
    list.push(values);
  }
  for (const table of manifest.tables) {
    const count = rows.get(table.name)?.length ?? 0;
    if (count !== table.rows) throw new ArchiveError(`the backup is corrupted (${table.name}: ${count} rows, manifest says ${table.rows})`);
  }
  return { manifest, rows };
}

function parseLine(line: string, what: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new ArchiveError(`the backup is corrupted (unreadable ${what})`);
  }
}
