import type { UpdateInfo } from '@palisade/contracts';
import { z } from 'zod';
import { compareVersions, parseVersion, type Version } from './version.js';

/**
 * The release feed (docs/updates.md): a JSON object with a list of releases.
 *
 *     { "releases": [ { "version": "1.4.0", "critical": false,
 *                       "release_notes_url": "https://…", "published_at": "2026-11-20T10:00:00Z" } ] }
 *
 * Unknown fields are ignored (the feed may grow); a release that breaks the shape makes the
 * whole feed bad, so a broken publication never announces half of itself.
 */
const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'an http(s) URL');

const ReleaseSchema = z.object({
  version: z
    .string()
    .max(128)
    .refine((v) => parseVersion(v) !== undefined, 'a semantic version'),
  critical: z.boolean(),
  release_notes_url: httpUrl,
  published_at: z.iso.datetime({ offset: true }),
});

const FeedSchema = z.object({ releases: z.array(ReleaseSchema).max(1000) });

export interface Release {
  version: string;
  parsed: Version;
  critical: boolean;
  releaseNotesUrl: string;
  publishedAt: string;
}

export class FeedError extends Error {
  override name = 'FeedError';
}

/** The feed's releases; throws FeedError when the text is not JSON or not the feed's shape. */
export function parseFeed(text: string): Release[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new FeedError('the feed is not JSON');
  }
  const result = FeedSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new FeedError(`the feed is not a release list (${issue ? `${issue.path.join('.') || 'root'}: ${issue.message}` : 'invalid'})`);
  }
  return result.data.releases.map((r) => ({
    version: r.version,
    parsed: parseVersion(r.version) as Version,
    critical: r.critical,
    releaseNotesUrl: r.release_notes_url,
    publishedAt: r.published_at,
  }));
}

/**
 * The update to announce to an instance running `current`: the newest release above it, critical
 * when any release above `current` up to that one is critical (skipping a critical fix by jumping
 * past it still needs the fix). Pre-releases are announced only to instances running a pre-release
 * of an older or the same version line; undefined when nothing is newer.
 */
export function pickUpdate(releases: Release[], current: string): UpdateInfo | undefined {
  const running = parseVersion(current);
  if (!running) return undefined;
  const newer = releases.filter(
    (r) => compareVersions(r.parsed, running) > 0 && (r.parsed.prerelease.length === 0 || running.prerelease.length > 0),
  );
  if (newer.length === 0) return undefined;
  const newest = newer.reduce((a, b) => (compareVersions(b.parsed, a.parsed) > 0 ? b : a));
  return {
    version: newest.version,
    critical: newer.some((r) => r.critical),
    release_notes_url: newest.releaseNotesUrl,
  };
}
