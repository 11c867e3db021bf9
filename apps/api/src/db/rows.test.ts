import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './rows.js';

const parse = pg.types.getTypeParser(1184) as (text: string) => Date;

describe('isoTimestamp', () => {
  it("gives toISOString's form for PostgreSQL's timestamptz text, whatever the fraction and offset", () => {
    const texts = [
      '2026-11-24 08:19:00+00',
      '2026-11-24 08:19:00.1+00',
      '2026-11-24 08:19:00.12+00',
      '2026-11-24 08:19:00.123+00',
      '2026-11-24 08:19:00.1239+00',
      '2026-11-24 08:19:00.123456+00',
      '2026-11-24 23:59:59.999999+00',
      '2026-11-24 09:19:00.5+01',
      '2026-11-24 02:49:00.25-05:30',
      '0044-03-15 12:00:00+00 BC',
    ];
    for (const text of texts) expect(isoTimestamp(text), text).toBe(parse(text).toISOString());
    const date = new Date('2026-11-24T08:19:00.123Z');
    expect(isoTimestamp(date)).toBe('2026-11-24T08:19:00.123Z');
  });
});
