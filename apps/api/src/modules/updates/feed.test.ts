import { describe, expect, it } from 'vitest';
import { FeedError, parseFeed, pickUpdate } from './feed.js';

const release = (version: string, critical = false) => ({
  version,
  critical,
  release_notes_url: `https://palisade.dev/releases/${version}`,
  published_at: '2026-11-20T10:00:00Z',
});
const feed = (...releases: unknown[]) => JSON.stringify({ releases });

describe('parseFeed', () => {
  it('reads the documented shape and ignores unknown fields', () => {
    const [r] = parseFeed(JSON.stringify({ channel: 'stable', releases: [{ ...release('1.4.0', true), size: 3 }] }));
    expect(r).toMatchObject({ version: '1.4.0', critical: true, releaseNotesUrl: 'https://palisade.dev/releases/1.4.0' });
  });

  it.each([
    ['not JSON', '<html>oops</html>'],
    ['no release list', '{"version":"1.0.0"}'],
    ['a bad version', feed({ ...release('1.0.0'), version: 'one' })],
    ['critical not a boolean', feed({ ...release('1.0.0'), critical: 'yes' })],
    ['a javascript: notes link', feed({ ...release('1.0.0'), release_notes_url: 'javascript:alert(1)' })],
    ['no publication time', feed({ ...release('1.0.0'), published_at: undefined })],
  ])('refuses %s', (_what, text) => {
    expect(() => parseFeed(text)).toThrow(FeedError);
  });
});

describe('pickUpdate', () => {
  it('announces nothing when no release is newer', () => {
    expect(pickUpdate(parseFeed(feed(release('0.9.0'), release('1.0.0'))), '1.0.0')).toBeUndefined();
    expect(pickUpdate(parseFeed(feed()), '1.0.0')).toBeUndefined();
  });

  it('announces the newest release, in whatever order the feed lists them', () => {
    const releases = parseFeed(feed(release('1.1.0'), release('1.10.0'), release('1.2.0')));
    expect(pickUpdate(releases, '1.0.0')).toEqual({
      version: '1.10.0',
      critical: false,
      release_notes_url: 'https://palisade.dev/releases/1.10.0',
    });
  });

  it('is critical when any release between the running one and the newest is critical', () => {
    const releases = parseFeed(feed(release('0.9.5', true), release('1.0.1', true), release('1.1.0')));
    expect(pickUpdate(releases, '1.0.0')?.critical).toBe(true);
    expect(pickUpdate(releases, '1.0.1')?.critical).toBe(false);
  });

  it('offers pre-releases only to instances running a pre-release', () => {
    const releases = parseFeed(feed(release('1.0.0'), release('1.1.0-rc.1')));
    expect(pickUpdate(releases, '1.0.0')).toBeUndefined();
    expect(pickUpdate(releases, '1.0.0-rc.3')?.version).toBe('1.1.0-rc.1');
  });
});
