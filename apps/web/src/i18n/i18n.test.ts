import { ERROR_CODES, FIELD_CODES } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { LANGUAGES } from './languages';
import { CATALOGUES, interpolate, isMessageKey, translate } from './translate';

const keys = Object.keys(en) as (keyof typeof en)[];
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('catalogues', () => {
  it.each(LANGUAGES)('%s has every key, none empty, no extras', (language) => {
    const catalogue = CATALOGUES[language] as Record<string, string>;
    for (const key of keys) {
      expect(catalogue[key], `${language}: ${key}`).toBeTypeOf('string');
      expect(catalogue[key]?.trim(), `${language}: ${key} is empty`).not.toBe('');
    }
    expect(Object.keys(catalogue).sort()).toEqual([...keys].sort());
  });

  it.each(LANGUAGES)('%s keeps the same {{placeholders}} as English', (language) => {
    const catalogue = CATALOGUES[language];
    for (const key of keys) expect(placeholders(catalogue[key]), `${language}: ${key}`).toEqual(placeholders(en[key]));
  });

  it.each(['ko', 'pl'] as const)('%s is a real translation, not a copy of English', (language) => {
    // Product names and language endonyms legitimately stay the same.
    const same = keys.filter((key) => CATALOGUES[language][key] === en[key]);
    expect(same.length / keys.length).toBeLessThan(0.06);
  });

  it('maps every problem code and field code of the API to a message', () => {
    for (const code of ERROR_CODES) expect(isMessageKey(`error.${code}`), `error.${code}`).toBe(true);
    for (const code of FIELD_CODES) {
      const key = code === 'max_length' || code === 'min_length' ? `field.${code}_plain` : `field.${code}`;
      expect(isMessageKey(key), key).toBe(true);
    }
  });

  it('uses the exact spec wording for lockout and app-version failures', () => {
    expect(en['error.auth.too_many_attempts']).toBe('Too many bad login attempts. Please try again in a few minutes.');
    expect(en['error.appVersion']).toBe('Failed to get application version.');
    expect(en['error.generic']).toBe('Error has occurred.');
    expect(en['field.fields_do_not_match']).toBe('Fields do not match');
  });
});

describe('translate', () => {
  it('interpolates {{name}} and leaves unknown placeholders alone', () => {
    expect(interpolate('max. {{max}} of {{ total }}', { max: 64, total: '1,000' })).toBe('max. 64 of 1,000');
    expect(interpolate('{{missing}}', {})).toBe('{{missing}}');
  });

  it('translates per language', () => {
    expect(translate('en', 'field.max_length', { max: 64 })).toBe('Maximum length exceeded (max. 64)');
    expect(translate('pl', 'nav.users')).toBe('Użytkownicy');
    expect(translate('ko', 'nav.users')).toBe('사용자');
  });
});
