import { SUPPORT_REDACTED } from '@palisade/contracts';
import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DUMPED_TABLES, type DumpedTable, redactRow, SECRET_SHAPED } from './support.repo.js';

const columnNames = (spec: DumpedTable) => Object.values(getTableColumns(spec.table)).map((c) => c.name);

describe('support data redaction', () => {
  it.each(Object.entries(DUMPED_TABLES))('classifies every secret-looking column of %s', (_name, spec: DumpedTable) => {
    const names = columnNames(spec);
    const unlisted = names.filter((n) => SECRET_SHAPED.test(n) && !spec.secret.includes(n) && !spec.notSecret.includes(n));
    // A new column that looks secret: add it to `secret` (or, if it is not, to `notSecret`).
    expect(unlisted).toEqual([]);
    // No stale exemptions: every column said not to be secret exists.
    expect(spec.notSecret.filter((n) => !names.includes(n))).toEqual([]);
  });

  it.each(Object.entries(DUMPED_TABLES))('redacts every secret column of %s that holds a value', (_name, spec: DumpedTable) => {
    const columns = Object.entries(getTableColumns(spec.table));
    const row = Object.fromEntries(columns.map(([key, c]) => [key, `value-of-${c.name}`]));
    const out = redactRow(spec, row);
    for (const name of spec.secret.filter((n) => n in out)) expect(out[name]).toBe(SUPPORT_REDACTED);
    // Unset secrets stay empty, so the reader sees that none is configured.
    const empty = redactRow(spec, Object.fromEntries(columns.map(([key]) => [key, null])));
    for (const name of spec.secret.filter((n) => n in empty)) expect(empty[name]).toBe('');
  });

  it('redacts a sealed value in any column, and an unlisted secret-looking column', () => {
    const spec: DumpedTable = { ...DUMPED_TABLES.settings, secret: [] };
    const out = redactRow(spec, {
      instanceName: 'v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      smtpPassword: 'plain',
      smtpServer: 'mail.example.com',
    });
    expect(out.instance_name).toBe(SUPPORT_REDACTED);
    expect(out.smtp_password).toBe(SUPPORT_REDACTED);
    expect(out.smtp_server).toBe('mail.example.com');
  });
});
