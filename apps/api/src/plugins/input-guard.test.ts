import { describe, expect, it } from 'vitest';
import { findUnstorableStrings } from '#src/plugins/input-guard.js';

describe('findUnstorableStrings', () => {
  it('accepts ordinary text, emoji, RTL marks and combining characters', () => {
    expect(findUnstorableStrings({ a: 'plain', b: ['😀', '\u200f', 'e\u0301', '👩‍👩‍👧'], c: { d: 1, e: true, f: null } })).toEqual([]);
  });

  it('reports NUL and lone surrogates with their paths', () => {
    const found = findUnstorableStrings({ name: 'a\u0000b', list: ['ok', '\ud800'], nested: { x: 'z\udc00' } }, ['body']);
    expect(found.map((e) => e.path).sort()).toEqual(['body.list.1', 'body.name', 'body.nested.x']);
    expect(found.every((e) => e.code === 'invalid')).toBe(true);
    expect(findUnstorableStrings('\u0000')).toEqual([expect.objectContaining({ path: '(root)' })]);
  });

  it('walks very deep values without overflowing the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableStrings(deep)).toHaveLength(1);
  });
});
