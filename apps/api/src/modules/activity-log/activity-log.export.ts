import type { ActivityLogEntry } from '@palisade/contracts';

/** The export's columns, in order (the CSV header row; JSON lines carry the entry as the API does). */
export const CSV_COLUMNS = [
  'id',
  'timestamp',
  'actor_type',
  'user_id',
  'username',
  'ip',
  'user_agent',
  'module',
  'event',
  'object_type',
  'object_id',
  'object_name',
  'device_id',
  'device_name',
  'details',
] as const;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled.
 * A cell a spreadsheet would read as a formula (starting with = + - @, or a tab or carriage
 * return that some strip first) gets a leading apostrophe, so opening the export runs nothing.
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value !== 'number' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CRLF = '\r\n';

export const csvHeader = (): string => CSV_COLUMNS.join(',') + CRLF;

export const csvLine = (entry: ActivityLogEntry): string => CSV_COLUMNS.map((column) => csvCell(entry[column])).join(',') + CRLF;

export const jsonLine = (entry: ActivityLogEntry): string => `${JSON.stringify(entry)}\n`;
