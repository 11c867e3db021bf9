import { describe, expect, it } from 'vitest';
import { sortGateways, summarize } from './gateway-status';

describe('summarize', () => {
  it('is none connected without gateways or with all of them offline', () => {
    expect(summarize([])).toBe('none_connected');
    expect(summarize([{ connected: false }])).toBe('none_connected');
  });
  it('tells all from some', () => {
    expect(summarize([{ connected: true }, { connected: true }])).toBe('all_connected');
    expect(summarize([{ connected: true }, { connected: false }])).toBe('some_connected');
  });
});

describe('sortGateways', () => {
  it('lists connected gateways first, then by name', () => {
    const sorted = sortGateways([
      { name: 'b', connected: false },
      { name: 'c', connected: true },
      { name: 'a', connected: false },
    ]);
    expect(sorted.map((g) => g.name)).toEqual(['c', 'a', 'b']);
  });
});
