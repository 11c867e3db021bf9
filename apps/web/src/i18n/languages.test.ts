import { describe, expect, it } from 'vitest';
import { detectLanguage } from './languages';

describe('detectLanguage', () => {
  it.each([
    [['pl-PL', 'en-US'], 'pl'],
    [['ko-KR'], 'ko'],
    [['ko'], 'ko'],
    [['de-DE', 'pl'], 'pl'],
    [['en-GB', 'pl-PL'], 'en'],
    [['fr-FR', 'de'], 'en'],
    [['PL-pl'], 'pl'],
    [[], 'en'],
  ] as const)('%j → %s', (preferred, expected) => {
    expect(detectLanguage(preferred)).toBe(expected);
  });

  it('defaults to English without a navigator list', () => {
    expect(detectLanguage(undefined)).toBe('en');
  });
});
