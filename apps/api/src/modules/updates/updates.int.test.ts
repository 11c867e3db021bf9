import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '#src/lib/route-schemas.js';
import { createTestApp, type TestApp } from '#test/helpers.js';

/** A release feed on 127.0.0.1 port 0: answers with whatever `respond` says and counts requests. */
interface FeedServer {
  url: string;
  respond: (res: http.ServerResponse) => void;
  /** performance.now() of each request's arrival. */
  arrivals: number[];
  close: () => Promise<void>;
}

async function startFeedServer(): Promise<FeedServer> {
  const feed: FeedServer = {
    url: '',
    respond: (res) => res.writeHead(404).end(),
    arrivals: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    feed.arrivals.push(performance.now());
    if (req.url === '/releases.json' && req.method === 'GET') feed.respond(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases.json`;
  feed.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return feed;
}

const [major, minor, patch] = APP_VERSION.split('.').map(Number) as [number, number, number];
const NEXT = `${major}.${minor}.${patch + 1}`;
const AFTER_NEXT = `${major}.${minor + 1}.0`;
const release = (version: string, critical: boolean) => ({
  version,
  critical,
  release_notes_url: `https://palisade.dev/releases/${version}`,
  published_at: '2026-11-20T10:00:00Z',
});
const json = (body: unknown) => (res: http.ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /updates (spec §6, §7; docs/updates.md)', () => {
  let feed: FeedServer;
  let t: TestApp;
  let admin: string;
  const lines: string[] = [];
  const warnings = () => lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && /update check failed/.test(l.msg));

  beforeAll(async () => {
    feed = await startFeedServer();
    t = await createTestApp(
      { UPDATE_CHECK_ENABLED: 'true', UPDATE_FEED_URL: feed.url, LOG_LEVEL: 'warn' },
      { logger: undefined, logStream: { write: (line: string) => void lines.push(line) } },
    );
    admin = await t.loginAdmin();
    // The feed is on loopback: the egress guard refuses it until the admin allows it.
    const res = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: ['127.0.0.1/32'] } });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await feed?.close();
  });
  afterEach(() => {
    feed.arrivals.length = 0;
  });

  const updates = () => t.request('GET', '/api/v1/updates', { cookie: admin });

  it('answers 204 before any check has run', async () => {
    expect((await updates()).statusCode).toBe(204);
  });

  it('announces a newer critical release', async () => {
    feed.respond = json({ releases: [release(NEXT, true)] });
    await t.app.updates.check();
    const res = await updates();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: NEXT, critical: true, release_notes_url: `https://palisade.dev/releases/${NEXT}` });
    expect(feed.arrivals).toHaveLength(1);
  });

  it('announces a newer non-critical release (the newest one)', async () => {
    feed.respond = json({ releases: [release(APP_VERSION, true), release(AFTER_NEXT, false)] });
    await t.app.updates.check();
    expect((await updates()).json()).toEqual({
      version: AFTER_NEXT,
      critical: false,
      release_notes_url: `https://palisade.dev/releases/${AFTER_NEXT}`,
    });
  });

  it('answers 204 when no release is newer than the running version', async () => {
    feed.respond = json({ releases: [release(APP_VERSION, false), release('0.0.1', true)] });
    await t.app.updates.check();
    expect((await updates()).statusCode).toBe(204);
  });

  it('answers 204 for a bad feed and logs one warning per streak of failures', async () => {
    feed.respond = json({ releases: [release(NEXT, true)] });
    await t.app.updates.check();
    expect((await updates()).statusCode).toBe(200);
    lines.length = 0;

    feed.respond = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"releases": [');
    await t.app.updates.check();
    expect((await updates()).statusCode).toBe(204);
    feed.respond = (res) => res.writeHead(503).end();
    await t.app.updates.check();
    expect((await updates()).statusCode).toBe(204);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ feedUrl: feed.url, reason: expect.stringMatching(/not JSON/) });

    // A success ends the streak; the next failure is logged again.
    feed.respond = json({ releases: [] });
    await t.app.updates.check();
    feed.respond = json({ releases: [{ version: 'soon' }] });
    await t.app.updates.check();
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1].reason).toMatch(/not a release list/);
  });

  it('goes through the egress guard: a loopback feed is refused without the allow-list', async () => {
    feed.respond = json({ releases: [release(NEXT, true)] });
    await t.app.updates.check();
    expect((await updates()).statusCode).toBe(200);
    feed.arrivals.length = 0;
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: [] } });
    try {
      lines.length = 0;
      await t.app.updates.check();
      expect(feed.arrivals).toHaveLength(0);
      expect((await updates()).statusCode).toBe(204);
      expect(warnings()).toHaveLength(1);
    } finally {
      await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: ['127.0.0.1/32'] } });
    }
  });

  it('answers at once while a check waits on a slow feed, and joins a second check to the running one', async () => {
    feed.respond = json({ releases: [] });
    await t.app.updates.check();
    feed.arrivals.length = 0;
    let release_: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release_ = resolve;
    });
    feed.respond = (res) => void held.then(() => json({ releases: [release(NEXT, false)] })(res));
    const checking = t.app.updates.check();
    await until('the feed request', () => feed.arrivals.length === 1);
    expect((await updates()).statusCode).toBe(204);
    // A second check while one is running joins it: the feed sees one request.
    const joined = t.app.updates.check();
    release_();
    await Promise.all([checking, joined]);
    expect(feed.arrivals).toHaveLength(1);
    expect((await updates()).json()).toMatchObject({ version: NEXT });
  });

  it('is for admins only: 403 for a user, 401 without a session', async () => {
    const user = await t.createUser('updates-user');
    expect((await t.request('GET', '/api/v1/updates', { cookie: user })).statusCode).toBe(403);
    expect((await t.request('GET', '/api/v1/updates')).statusCode).toBe(401);
  });
});

describe('the update check job (an instance of its own per test)', () => {
  it('answers 204 when the feed is down, logs it, and never throws', async () => {
    const down = await startFeedServer();
    await down.close();
    const lines: string[] = [];
    const warnings = () => lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && /update check failed/.test(l.msg));
    const app = await createTestApp(
      { UPDATE_CHECK_ENABLED: 'true', UPDATE_FEED_URL: down.url, LOG_LEVEL: 'warn' },
      { logger: undefined, logStream: { write: (line: string) => void lines.push(line) } },
    );
    try {
      const cookie = await app.loginAdmin();
      await app.request('PATCH', '/api/v1/settings', { cookie, payload: { egress_allow_cidrs: ['127.0.0.1/32'] } });
      lines.length = 0;
      await app.app.updates.check();
      await app.app.updates.check();
      expect((await app.request('GET', '/api/v1/updates', { cookie })).statusCode).toBe(204);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0].reason).toMatch(/ECONNREFUSED/);
    } finally {
      await app.close();
    }
  });

  it('reads the feed soon after start and then at most once per interval', async () => {
    const feed = await startFeedServer();
    feed.respond = json({ releases: [release(NEXT, true)] });
    const t = await createTestApp(
      { UPDATE_CHECK_ENABLED: 'true', UPDATE_FEED_URL: feed.url, UPDATE_CHECK_INTERVAL_SECONDS: '1' },
      { jobs: true },
    );
    try {
      const admin = await t.loginAdmin();
      await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: ['127.0.0.1/32'] } });
      await until('three feed requests', () => feed.arrivals.length >= 3, 30_000);
      expect((await t.request('GET', '/api/v1/updates', { cookie: admin })).json()).toMatchObject({ version: NEXT, critical: true });
      // A lower bound only: however slow the host, two requests are never closer than the interval.
      for (let i = 1; i < feed.arrivals.length; i++) {
        expect((feed.arrivals[i] as number) - (feed.arrivals[i - 1] as number)).toBeGreaterThanOrEqual(995);
      }
    } finally {
      await t.close();
      await feed.close();
    }
  });

  it('makes no request when update checks are off, not even when asked directly', async () => {
    const feed = await startFeedServer();
    const t = await createTestApp(
      { UPDATE_CHECK_ENABLED: 'false', UPDATE_FEED_URL: feed.url, UPDATE_CHECK_INTERVAL_SECONDS: '1' },
      { jobs: true },
    );
    try {
      await t.app.updates.check();
      expect(feed.arrivals).toHaveLength(0);
      expect((await t.request('GET', '/api/v1/updates', { cookie: await t.loginAdmin() })).statusCode).toBe(204);
    } finally {
      await t.close();
      await feed.close();
    }
  });
});
