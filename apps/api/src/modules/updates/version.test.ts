import { describe, expect, it } from 'vitest';
import { compareVersions, parseVersion } from './version.js';

const cmp = (a: string, b: string) => {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  if (!x || !y) throw new Error(`not a version: ${a} / ${b}`);
  return compareVersions(x, y);
};

describe('parseVersion', () => {
  it('reads MAJOR.MINOR.PATCH with pre-release and build metadata, and a leading v', () => {
    expect(parseVersion('1.2.3')).toEqual({ major: 1, minor: 2, patch: 3, prerelease: [] });
    expect(parseVersion('v10.0.1-rc.2+build.5')).toEqual({ major: 10, minor: 0, patch: 1, prerelease: ['rc', '2'] });
  });

  it('refuses what is not a semantic version', () => {
    for (const text of ['', '1', '1.2', '1.2.3.4', '01.2.3', '1.2.3-', '1.2.3-01', 'latest', '1.2.x', ' 1.2.3 x']) {
      expect(parseVersion(text), text).toBeUndefined();
    }
  });
});

describe('compareVersions', () => {
  it('orders numerically, not as text', () => {
    expect(cmp('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(cmp('2.0.0', '10.0.0')).toBeLessThan(0);
    expect(cmp('1.2.3', 'v1.2.3')).toBe(0);
  });

  it('puts a pre-release before its release and orders pre-releases by semver §11', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let i = 0; i < ordered.length - 1; i++) {
      expect(cmp(ordered[i] as string, ordered[i + 1] as string), `${ordered[i]} < ${ordered[i + 1]}`).toBeLessThan(0);
      expect(cmp(ordered[i + 1] as string, ordered[i] as string)).toBeGreaterThan(0);
    }
  });

  it('ignores build metadata', () => {
    expect(cmp('1.0.0+a', '1.0.0+b')).toBe(0);
  });
});
