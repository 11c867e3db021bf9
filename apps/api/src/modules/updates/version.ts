/**
 * Semantic versions (semver.org §2, §9–11): MAJOR.MINOR.PATCH, an optional pre-release after
 * '-', optional build metadata after '+' (ignored in comparisons). A leading 'v' is accepted.
 */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated pre-release identifiers; empty for a release. */
  prerelease: string[];
}

const NUMBER = '(0|[1-9]\\d*)';
const IDENTIFIER = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
const VERSION = new RegExp(
  `^v?${NUMBER}\\.${NUMBER}\\.${NUMBER}(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`,
);

/** The version, or undefined when `text` is not a semantic version. */
export function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text.trim());
  if (!m) return undefined;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (![major, minor, patch].every(Number.isSafeInteger)) return undefined;
  return { major, minor, patch, prerelease: m[4] ? m[4].split('.') : [] };
}

const isNumeric = (id: string) => /^\d+$/.test(id);

function compareIdentifiers(a: string, b: string): number {
  const [an, bn] = [isNumeric(a), isNumeric(b)];
  if (an && bn) return Math.sign(Number(a) - Number(b));
  // Numeric identifiers have lower precedence than alphanumeric ones.
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Semver precedence: negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: Version, b: Version): number {
  const core = Math.sign(a.major - b.major) || Math.sign(a.minor - b.minor) || Math.sign(a.patch - b.patch);
  if (core !== 0) return core;
  // A pre-release comes before its release.
  if (a.prerelease.length === 0 && b.prerelease.length === 0) return 0;
  if (a.prerelease.length === 0) return 1;
  if (b.prerelease.length === 0) return -1;
  const n = Math.min(a.prerelease.length, b.prerelease.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(a.prerelease[i] as string, b.prerelease[i] as string);
    if (c !== 0) return c;
  }
  return Math.sign(a.prerelease.length - b.prerelease.length);
}
