import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '#src/env.js';

describe('parseEnv', () => {
  it('applies the defaults to an empty environment', () => {
    expect(parseEnv({})).toEqual({
      PORT: 8000,
      HOST: '0.0.0.0',
      DATABASE_URL: undefined,
      DATA_DIR: './data',
      SECRET_KEY: undefined,
      ADMIN_PASSWORD: undefined,
      PUBLIC_URL: undefined,
      LOG_LEVEL: 'info',
      WEB_DIST: undefined,
      TRUST_PROXY: false,
      RATE_LIMIT_PER_MINUTE: 600,
      SESSION_TTL_HOURS: 168,
      GRPC_PORT: 50055,
      GRPC_TLS_CERT: undefined,
      GRPC_TLS_KEY: undefined,
      GRPC_PUBLIC_URL: undefined,
      STATS_RETENTION_DAYS: 30,
      ACL_EXPIRY_INTERVAL_MS: 5000,
      DATABASE_POOL_SIZE: 10,
      DATABASE_CONNECT_TIMEOUT_SECONDS: 10,
      WORKER_HEARTBEAT_TIMEOUT_SECONDS: 60,
      WORKER_JOB_DEADLINE_SECONDS: 300,
      UPDATE_FEED_URL: 'https://updates.palisade.dev/v1/releases.json',
      UPDATE_CHECK_ENABLED: true,
      UPDATE_CHECK_INTERVAL_SECONDS: 21_600,
      SHUTDOWN_DRAIN_SECONDS: 5,
    });
  });

  it('takes an http(s) update feed, an off switch and an interval of at least 1 s', () => {
    const env = parseEnv({
      UPDATE_FEED_URL: 'http://127.0.0.1:8080/f.json',
      UPDATE_CHECK_ENABLED: 'false',
      UPDATE_CHECK_INTERVAL_SECONDS: '60',
    });
    expect(env).toMatchObject({
      UPDATE_FEED_URL: 'http://127.0.0.1:8080/f.json',
      UPDATE_CHECK_ENABLED: false,
      UPDATE_CHECK_INTERVAL_SECONDS: 60,
    });
    expect(() => parseEnv({ UPDATE_FEED_URL: 'ftp://example.com/f.json' })).toThrow(/UPDATE_FEED_URL/);
    expect(() => parseEnv({ UPDATE_CHECK_ENABLED: 'no' })).toThrow(/UPDATE_CHECK_ENABLED/);
    expect(() => parseEnv({ UPDATE_CHECK_INTERVAL_SECONDS: '0' })).toThrow(/UPDATE_CHECK_INTERVAL_SECONDS/);
  });

  it('takes an ACL expiry interval from 100 ms to 10 minutes', () => {
    expect(parseEnv({ ACL_EXPIRY_INTERVAL_MS: '250' }).ACL_EXPIRY_INTERVAL_MS).toBe(250);
    expect(() => parseEnv({ ACL_EXPIRY_INTERVAL_MS: '10' })).toThrow(/ACL_EXPIRY_INTERVAL_MS/);
  });

  it('takes an optional support address (an email)', () => {
    expect(parseEnv({}).SUPPORT_EMAIL).toBeUndefined();
    expect(parseEnv({ SUPPORT_EMAIL: 'help@example.com' }).SUPPORT_EMAIL).toBe('help@example.com');
    expect(() => parseEnv({ SUPPORT_EMAIL: 'not-an-address' })).toThrow(/SUPPORT_EMAIL/);
  });

  it('takes an optional metrics bearer token of at least 16 characters', () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: 'a-long-enough-token' }).METRICS_TOKEN).toBe('a-long-enough-token');
    expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('takes a shutdown drain from 0 (close at once) to 300 seconds, 5 by default', () => {
    expect(parseEnv({ SHUTDOWN_DRAIN_SECONDS: '0' }).SHUTDOWN_DRAIN_SECONDS).toBe(0);
    expect(parseEnv({ SHUTDOWN_DRAIN_SECONDS: '1.5' }).SHUTDOWN_DRAIN_SECONDS).toBe(1.5);
    expect(() => parseEnv({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
    expect(() => parseEnv({ SHUTDOWN_DRAIN_SECONDS: '301' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
    expect(() => parseEnv({ SHUTDOWN_DRAIN_SECONDS: 'soon' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
  });

  it('takes a PostgreSQL pool size from 1 to 200', () => {
    expect(parseEnv({ DATABASE_POOL_SIZE: '25' }).DATABASE_POOL_SIZE).toBe(25);
    expect(() => parseEnv({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => parseEnv({ DATABASE_POOL_SIZE: 'many' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('takes a PostgreSQL connect timeout from 1 to 300 seconds', () => {
    expect(parseEnv({ DATABASE_CONNECT_TIMEOUT_SECONDS: '3' }).DATABASE_CONNECT_TIMEOUT_SECONDS).toBe(3);
    expect(() => parseEnv({ DATABASE_CONNECT_TIMEOUT_SECONDS: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT_SECONDS/);
    expect(() => parseEnv({ DATABASE_CONNECT_TIMEOUT_SECONDS: '301' })).toThrow(/DATABASE_CONNECT_TIMEOUT_SECONDS/);
    expect(() => parseEnv({ DATABASE_CONNECT_TIMEOUT_SECONDS: 'soon' })).toThrow(/DATABASE_CONNECT_TIMEOUT_SECONDS/);
  });

  it('takes an Argon2 concurrency of at least 1, unset by default', () => {
    expect(parseEnv({}).ARGON2_CONCURRENCY).toBeUndefined();
    expect(parseEnv({ ARGON2_CONCURRENCY: '3' }).ARGON2_CONCURRENCY).toBe(3);
    expect(() => parseEnv({ ARGON2_CONCURRENCY: '0' })).toThrow(/ARGON2_CONCURRENCY/);
    expect(() => parseEnv({ ARGON2_CONCURRENCY: '1.5' })).toThrow(/ARGON2_CONCURRENCY/);
  });

  it('wants both gRPC TLS files or neither', () => {
    expect(() => parseEnv({ GRPC_TLS_CERT: '/x.crt' })).toThrow(/GRPC_TLS_CERT, GRPC_TLS_KEY/);
    expect(parseEnv({ GRPC_TLS_CERT: '/x.crt', GRPC_TLS_KEY: '/x.key' }).GRPC_TLS_KEY).toBe('/x.key');
    expect(() => parseEnv({ STATS_RETENTION_DAYS: '0' })).toThrow(/STATS_RETENTION_DAYS/);
  });

  it('treats empty values as unset', () => {
    const env = parseEnv({ PORT: '', RATE_LIMIT_PER_MINUTE: ' ', SESSION_TTL_HOURS: '' });
    expect(env).toMatchObject({ PORT: 8000, RATE_LIMIT_PER_MINUTE: 600, SESSION_TTL_HOURS: 168 });
  });

  it('reads and converts the values it is given; blank optional values count as unset', () => {
    const env = parseEnv({
      PORT: '9000',
      DATABASE_URL: 'postgresql://u:p@db:5432/palisade',
      SECRET_KEY: 'k'.repeat(32),
      PUBLIC_URL: 'https://vpn.example.com',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 'true',
      RATE_LIMIT_PER_MINUTE: '0',
      SESSION_TTL_HOURS: '1',
      WEB_DIST: '   ',
      ADMIN_PASSWORD: '',
    });
    expect(env).toMatchObject({
      PORT: 9000,
      DATABASE_URL: 'postgresql://u:p@db:5432/palisade',
      PUBLIC_URL: 'https://vpn.example.com',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: true,
      RATE_LIMIT_PER_MINUTE: 0,
      SESSION_TTL_HOURS: 1,
    });
    expect(env.WEB_DIST).toBeUndefined();
    expect(env.ADMIN_PASSWORD).toBeUndefined();
    expect(parseEnv({ DATABASE_URL: 'postgres://localhost/x' }).DATABASE_URL).toBe('postgres://localhost/x');
  });

  const failure = (source: Record<string, string>): string => {
    try {
      parseEnv(source);
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      return (error as Error).message;
    }
    throw new Error(`parseEnv accepted ${JSON.stringify(source)}`);
  };

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'localhost:5432' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ LOG_LEVEL: 'INFO' }, 'LOG_LEVEL'],
    [{ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ SECRET_KEY: 'short' }, 'SECRET_KEY'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ RATE_LIMIT_PER_MINUTE: 'many' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ SESSION_TTL_HOURS: '0' }, 'SESSION_TTL_HOURS'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
  ])('refuses %j and names %s', (source, variable) => {
    const message = failure(source);
    expect(message).toMatch(/^Invalid environment configuration:/);
    expect(message).toMatch(new RegExp(`^  ${variable}: `, 'm'));
  });

  it('names every bad variable at once, and never echoes a secret value', () => {
    const message = failure({ PORT: 'x', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://user:hunter2-secret@db/x' });
    expect(message).toMatch(/^ {2}PORT: /m);
    expect(message).toMatch(/^ {2}LOG_LEVEL: /m);
    expect(message).toMatch(/^ {2}DATABASE_URL: /m);
    expect(message).not.toContain('hunter2-secret');
  });
});
