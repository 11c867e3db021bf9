import { describe, expect, it } from 'vitest';
import { checkOf, STATUS_VIEW, sortGateways, summarize } from './gateway-status';

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

describe('STATUS_VIEW', () => {
  it('colours all connected green, some gold, none and a failed check red', () => {
    expect(STATUS_VIEW.all_connected.tone).toBe('success');
    expect(STATUS_VIEW.some_connected.tone).toBe('warning');
    expect(STATUS_VIEW.none_connected.tone).toBe('error');
    expect(STATUS_VIEW.error.tone).toBe('error');
  });
});

describe('checkOf', () => {
  const fromList = (data: { connected: boolean }[]) => summarize(data);
  it('is undefined until the first answer, then the summary', () => {
    expect(checkOf({ isError: false, data: undefined }, fromList)).toBeUndefined();
    expect(checkOf({ isError: false, data: [] }, fromList)).toBe('none_connected');
    expect(checkOf({ isError: false, data: [{ connected: true }] }, fromList)).toBe('all_connected');
  });
  it('is error when the call failed, even with data from an earlier answer', () => {
    expect(checkOf({ isError: true, data: [{ connected: true }] }, fromList)).toBe('error');
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
