import { defaultParseSearch, defaultStringifySearch } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import {
  type ActivitySearch,
  activityExportUrl,
  isoToLocalInput,
  localInputToIso,
  parseActivitySearch,
  presetFrom,
  toActivityListParams,
} from './activity-search';

const NOW = Date.parse('2026-11-24T10:30:45.123Z');
/** What a shared link does: the search is written into the URL and read back by the router. */
const throughUrl = (search: ActivitySearch) => parseActivitySearch(defaultParseSearch(defaultStringifySearch(search)));

describe('activity log search ↔ URL', () => {
  it('keeps every filter across a round trip through the URL', () => {
    const search: ActivitySearch = {
      page: 3,
      per_page: 100,
      search: 'laptop',
      sort: 'timestamp',
      range: 'custom',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-02T12:00:00.000Z',
      user: ['anna', 'bob'],
      module: ['users', 'auth'],
      event: ['user.created', 'auth.login_failed'],
    };
    expect(throughUrl(search)).toEqual(search);
  });

  it('leaves out what is unset, so the default view has a bare URL', () => {
    expect(parseActivitySearch({})).toEqual({});
    expect(defaultStringifySearch(parseActivitySearch({ user: [], module: [], search: '' }))).toBe('');
  });

  it('drops values a hand-edited URL got wrong instead of failing the page', () => {
    expect(
      parseActivitySearch({
        page: '0x10',
        sort: 'name',
        range: 'forever',
        module: ['users', 'nope'],
        event: 'not.an_event',
        user: ['', 'x'.repeat(65), 'anna', 'anna'],
      }),
    ).toEqual({ module: ['users'], user: ['anna'] });
  });

  it('reads a single value as a list of one', () => {
    expect(parseActivitySearch({ module: 'users', event: 'user.deleted', user: 'anna' })).toEqual({
      module: ['users'],
      event: ['user.deleted'],
      user: ['anna'],
    });
  });

  it('keeps absolute instants only for a custom range', () => {
    expect(parseActivitySearch({ range: '24h', from: '2026-11-01T00:00:00Z' })).toEqual({ range: '24h' });
    expect(parseActivitySearch({ range: 'custom', from: 'yesterday', to: '2026-11-02T00:00:00Z' })).toEqual({
      range: 'custom',
      to: '2026-11-02T00:00:00Z',
    });
  });
});

describe('activity log search → API query', () => {
  it('applies the defaults: first page, 50 rows, newest first, no filter', () => {
    expect(toActivityListParams({}, NOW)).toEqual({ page: 1, per_page: 50, sort: '-timestamp' });
  });

  it('turns a preset into a start relative to now, floored to the minute', () => {
    expect(presetFrom('1h', NOW)).toBe('2026-11-24T09:30:00.000Z');
    expect(toActivityListParams({ range: '24h' }, NOW).from).toBe('2026-11-23T10:30:00.000Z');
    expect(toActivityListParams({ range: '7d' }, NOW).from).toBe('2026-11-17T10:30:00.000Z');
    expect(toActivityListParams({ range: '30d' }, NOW)).not.toHaveProperty('to');
    // Within one minute the query (and so its cache key) stays the same.
    expect(toActivityListParams({ range: '1h' }, NOW + 10_000)).toEqual(toActivityListParams({ range: '1h' }, NOW));
  });

  it('passes a custom range and the filters through', () => {
    const search = parseActivitySearch({
      range: 'custom',
      from: '2026-11-01T00:00:00Z',
      user: ['anna'],
      module: ['users'],
      event: ['user.created'],
      search: 'vpn',
      sort: 'timestamp',
      page: '2',
    });
    expect(toActivityListParams(search, NOW)).toEqual({
      page: 2,
      per_page: 50,
      sort: 'timestamp',
      from: '2026-11-01T00:00:00Z',
      user: ['anna'],
      module: ['users'],
      event: ['user.created'],
      search: 'vpn',
    });
  });

  it('exports the current filter and sort, repeating the key of each list value, without paging', () => {
    const url = new URL(
      activityExportUrl({ module: ['users', 'auth'], user: ['anna'], range: '1h', page: 4, sort: 'timestamp' }, 'jsonl', NOW),
      'http://x',
    );
    expect(url.pathname).toBe('/api/v1/activity_log/export');
    expect(url.searchParams.getAll('module')).toEqual(['users', 'auth']);
    expect(url.searchParams.getAll('user')).toEqual(['anna']);
    expect(url.searchParams.get('from')).toBe('2026-11-24T09:30:00.000Z');
    expect(url.searchParams.get('sort')).toBe('timestamp');
    expect(url.searchParams.get('format')).toBe('jsonl');
    expect(url.searchParams.has('page')).toBe(false);
  });
});

describe('custom range inputs', () => {
  it('reads the end minute as inclusive, up to its last millisecond, and shows both back as chosen', () => {
    const start = localInputToIso('2026-11-24T10:15');
    const end = localInputToIso('2026-11-24T10:15', 'end');
    expect(Date.parse(end ?? '') - Date.parse(start ?? '')).toBe(59_999);
    expect(isoToLocalInput(start)).toBe('2026-11-24T10:15');
    expect(isoToLocalInput(end)).toBe('2026-11-24T10:15');
    expect(localInputToIso('')).toBeUndefined();
    expect(localInputToIso('not a date')).toBeUndefined();
  });
});
