import { ERROR_CODES, FIELD_CODES } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { en, type Message } from './en';
import { LANGUAGES } from './languages';
import { CATALOGUES, interpolate, isMessageKey, translate } from './translate';

const keys = Object.keys(en) as (keyof typeof en)[];
const forms = (message: Message): string[] => (typeof message === 'string' ? [message] : Object.values(message));
const placeholders = (message: Message) =>
  [...new Set(forms(message).flatMap((text) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '')))].sort();

describe('catalogues', () => {
  it.each(LANGUAGES)('%s has every key, none empty, no extras', (language) => {
    const catalogue = CATALOGUES[language] as Record<string, Message>;
    for (const key of keys) {
      const message = catalogue[key];
      expect(typeof message, `${language}: ${key}`).toBe(typeof en[key]);
      for (const text of forms(message ?? '')) expect(text.trim(), `${language}: ${key} is empty`).not.toBe('');
    }
    expect(Object.keys(catalogue).sort()).toEqual([...keys].sort());
  });

  it.each(LANGUAGES)('%s keeps the same {{placeholders}} as English', (language) => {
    const catalogue = CATALOGUES[language];
    for (const key of keys) expect(placeholders(catalogue[key]), `${language}: ${key}`).toEqual(placeholders(en[key]));
  });

  it.each(LANGUAGES)('%s gives every plural category its rules use, and only those', (language) => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const key of keys) {
      const message = CATALOGUES[language][key] as Message;
      if (typeof message === 'string') continue;
      expect(Object.keys(message).sort(), `${language}: ${key}`).toEqual([...categories].sort());
    }
  });

  it('has no count-bearing plain string: a {{count}} followed by a counted noun is plural-aware', () => {
    // "+3 more" and "3 in this period" name no noun after the number.
    const nounless = new Set(['groups.moreMembers', 'overview.inPeriod']);
    for (const key of keys) {
      const message = en[key] as Message;
      if (typeof message === 'string' && !nounless.has(key)) expect(message, key).not.toMatch(/\{\{\s*count\s*\}\}\s+\p{L}/u);
    }
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

  it('picks the plural form for the count and formats the number per language', () => {
    expect(translate('en', 'overview.hours', { count: 1 })).toBe('Last hour');
    expect(translate('en', 'overview.hours', { count: 24 })).toBe('Last 24 hours');
    expect(translate('pl', 'overview.hours', { count: 1 })).toBe('Ostatnia godzina');
    expect(translate('pl', 'overview.hours', { count: 2 })).toBe('Ostatnie 2 godziny');
    expect(translate('pl', 'overview.hours', { count: 5 })).toBe('Ostatnie 5 godzin');
    expect(translate('pl', 'overview.hours', { count: 22 })).toBe('Ostatnie 22 godziny');
    expect(translate('ko', 'overview.hours', { count: 168 })).toBe('최근 168시간');
    expect(translate('en', 'wizard.map.moreUsers', { shown: '200', count: 1200 })).toBe(
      'Showing 200 of 1,200 users. Type to narrow the search.',
    );
    expect(translate('pl', 'wizard.map.moreUsers', { shown: '200', count: 1200 })).toContain('z 1200 użytkowników');
  });

  it('translates per language', () => {
    expect(translate('en', 'field.max_length', { max: 64 })).toBe('Maximum length exceeded (max. 64)');
    expect(translate('pl', 'nav.users')).toBe('Użytkownicy');
    expect(translate('ko', 'nav.users')).toBe('사용자');
  });
});
