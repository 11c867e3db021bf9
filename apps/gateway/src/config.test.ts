import { describe, expect, it } from 'vitest';
import { ConfigError, parseCommandLine, type Config } from './config.js';

const base = { GATEWAY_GRPC_URL: 'https://control.example.com:8443', GATEWAY_TOKEN: 'tok_abc' };

function run(env: Record<string, string | undefined>, argv: string[] = []): Config {
  const parsed = parseCommandLine(env, argv);
  if (parsed.kind !== 'run') throw new Error(`expected run, got ${parsed.kind}`);
  return parsed.config;
}

const errorOf = (env: Record<string, string | undefined>, argv: string[] = []): string => {
  try {
    parseCommandLine(env, argv);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('config', () => {
  it('applies the documented defaults', () => {
    expect(run(base)).toEqual({
      grpcUrl: 'https://control.example.com:8443',
      token: 'tok_abc',
      ifname: 'wg0',
      userspace: 'auto',
      statsIntervalSeconds: 10,
      healthPort: 8081,
      caFile: undefined,
      cleanupFirewall: false,
    });
  });

  it('reads --cleanup-firewall as a switch, and its variable as true/false', () => {
    expect(run(base, ['--cleanup-firewall']).cleanupFirewall).toBe(true);
    expect(run(base, ['--cleanup-firewall', '--ifname', 'wg3'])).toMatchObject({ cleanupFirewall: true, ifname: 'wg3' });
    expect(run({ ...base, GATEWAY_CLEANUP_FIREWALL: 'true' }, ['--cleanup-firewall=false']).cleanupFirewall).toBe(false);
    expect(run({ ...base, GATEWAY_CLEANUP_FIREWALL: '1' }).cleanupFirewall).toBe(true);
    expect(run({ ...base, GATEWAY_CLEANUP_FIREWALL: 'no' }).cleanupFirewall).toBe(false);
    expect(run({ ...base, GATEWAY_CLEANUP_FIREWALL: ' ' }).cleanupFirewall).toBe(false);
    expect(errorOf({ ...base, GATEWAY_CLEANUP_FIREWALL: 'maybe' })).toBe(
      'GATEWAY_CLEANUP_FIREWALL (--cleanup-firewall): must be true or false',
    );
  });

  it('reads every variable', () => {
    const config = run({
      ...base,
      GATEWAY_IFNAME: 'wg-office',
      GATEWAY_USERSPACE: 'always',
      GATEWAY_STATS_INTERVAL: '30',
      GATEWAY_HEALTH_PORT: '9000',
      GATEWAY_CA_FILE: '/etc/palisade/ca.pem',
    });
    expect(config).toMatchObject({ ifname: 'wg-office', userspace: 'always', statsIntervalSeconds: 30, healthPort: 9000 });
    expect(config.caFile).toBe('/etc/palisade/ca.pem');
  });

  it('lets flags (both spellings) win over variables', () => {
    const config = run({ ...base, GATEWAY_IFNAME: 'wg1' }, ['--ifname', 'wg2', '--stats-interval=5', '--userspace', 'never']);
    expect(config).toMatchObject({ ifname: 'wg2', statsIntervalSeconds: 5, userspace: 'never' });
    expect(run({}, ['--grpc-url', 'http://127.0.0.1:9000', '--token=t']).grpcUrl).toBe('http://127.0.0.1:9000');
  });

  it('treats blank variables as unset', () => {
    expect(run({ ...base, GATEWAY_IFNAME: '  ', GATEWAY_CA_FILE: '' })).toMatchObject({ ifname: 'wg0', caFile: undefined });
  });

  it.each([
    [{ GATEWAY_TOKEN: 't' }, 'GATEWAY_GRPC_URL'],
    [{ GATEWAY_GRPC_URL: 'https://x' }, 'GATEWAY_TOKEN'],
    [{ ...base, GATEWAY_GRPC_URL: 'ftp://x' }, 'GATEWAY_GRPC_URL'],
    [{ ...base, GATEWAY_GRPC_URL: 'not a url' }, 'GATEWAY_GRPC_URL'],
    [{ ...base, GATEWAY_TOKEN: 'has space' }, 'GATEWAY_TOKEN'],
    [{ ...base, GATEWAY_IFNAME: 'this-name-is-too-long' }, 'GATEWAY_IFNAME'],
    [{ ...base, GATEWAY_IFNAME: 'wg/0' }, 'GATEWAY_IFNAME'],
    [{ ...base, GATEWAY_IFNAME: '..' }, 'GATEWAY_IFNAME'],
    [{ ...base, GATEWAY_USERSPACE: 'yes' }, 'GATEWAY_USERSPACE'],
    [{ ...base, GATEWAY_STATS_INTERVAL: '0' }, 'GATEWAY_STATS_INTERVAL'],
    [{ ...base, GATEWAY_STATS_INTERVAL: '1.5' }, 'GATEWAY_STATS_INTERVAL'],
    [{ ...base, GATEWAY_STATS_INTERVAL: 'ten' }, 'GATEWAY_STATS_INTERVAL'],
    [{ ...base, GATEWAY_HEALTH_PORT: '70000' }, 'GATEWAY_HEALTH_PORT'],
    [{ ...base, GATEWAY_HEALTH_PORT: '-1' }, 'GATEWAY_HEALTH_PORT'],
    [{ ...base, GATEWAY_GRPC_URL: 'http://x:1', GATEWAY_CA_FILE: '/ca.pem' }, 'GATEWAY_CA_FILE'],
  ])('rejects %j naming %s', (env, variable) => {
    expect(errorOf(env)).toMatch(new RegExp(`^${variable} \\(--`));
  });

  it('names the variable and flag when a flag value is bad', () => {
    expect(errorOf(base, ['--health-port', 'abc'])).toBe('GATEWAY_HEALTH_PORT (--health-port): must be a whole number between 0 and 65535');
  });

  it('rejects unknown flags and flags without a value', () => {
    expect(errorOf(base, ['--nope'])).toMatch(/unknown argument '--nope'/);
    expect(errorOf(base, ['--token'])).toMatch(/^GATEWAY_TOKEN \(--token\): --token needs a value/);
  });

  it('answers --help and --version before validating', () => {
    expect(parseCommandLine({}, ['--help']).kind).toBe('help');
    expect(parseCommandLine({}, ['-v']).kind).toBe('version');
  });
});
