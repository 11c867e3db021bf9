import { EVENT_CATALOGUE, EVENT_MODULES, EVENT_TYPES } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@/i18n/languages';
import { CATALOGUES } from '@/i18n/translate';
import { eventLabelKey, FILTER_EVENTS, FILTER_MODULES, moduleLabelKey } from './event-labels';

describe('event labels', () => {
  it.each(LANGUAGES)('%s names every event type and module of the catalogue, each differently', (language) => {
    const catalogue = CATALOGUES[language] as unknown as Record<string, string | undefined>;
    const events = EVENT_TYPES.map((type) => catalogue[eventLabelKey(type)]);
    for (const [index, label] of events.entries()) expect(label?.trim(), EVENT_TYPES[index]).toBeTruthy();
    expect(new Set(events).size).toBe(EVENT_TYPES.length);
    for (const module of EVENT_MODULES) expect(catalogue[moduleLabelKey(module)]?.trim(), module).toBeTruthy();
  });

  it('offers as filters only what is recorded today', () => {
    expect(FILTER_EVENTS).toContain('user.created');
    expect(FILTER_EVENTS.filter((type) => 'later' in EVENT_CATALOGUE[type])).toEqual([]);
    expect(FILTER_EVENTS).toContain('yubikey.provisioned');
    expect(FILTER_MODULES).toEqual(expect.arrayContaining(['auth', 'users', 'groups', 'settings']));
    expect(FILTER_MODULES).toContain('mfa');
    expect(FILTER_MODULES).toContain('openid');
    expect(FILTER_MODULES).toContain('provisioning');
  });
});
