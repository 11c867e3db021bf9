import { describe, expect, it } from 'vitest';
import { parseCommandLine, TOKEN_ENV } from './args.js';
import { CliError } from './errors.js';

const fails = (argv: string[], pattern: RegExp, env = {}) => {
  try {
    parseCommandLine(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(pattern);
    return;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('parseCommandLine', () => {
  it('reads enroll with its defaults and options', () => {
    const cmd = parseCommandLine(['enroll', '--url', 'https://vpn.example.com/?x=1#y', '--token', ' abc ']);
    expect(cmd).toMatchObject({
      kind: 'enroll',
      token: 'abc',
      up: false,
      force: false,
      interfaceName: 'palisade0',
      configDir: '/etc/wireguard',
    });
    expect(cmd.kind === 'enroll' && cmd.url.href).toBe('https://vpn.example.com/');
    expect(
      parseCommandLine(['enroll', '--url', 'http://10.0.0.1:8080', '--interface', 'wg-edge', '--config-dir', '/tmp/x', '--up'], {
        [TOKEN_ENV]: 'from-env',
      }),
    ).toMatchObject({ token: 'from-env', interfaceName: 'wg-edge', configDir: '/tmp/x', up: true });
  });

  it('refuses what cannot work, with the usage', () => {
    fails(['enroll', '--token', 't'], /--url is required/);
    fails(['enroll', '--url', 'https://x'], /--token is required/);
    fails(['enroll', '--url', 'vpn.example.com', '--token', 't'], /is not a URL/);
    fails(['enroll', '--url', 'ftp://x', '--token', 't'], /https:\/\/ or http:\/\//);
    fails(['enroll', '--url', 'https://x', '--token', 't', '--interface', 'much-too-long-name'], /not a WireGuard interface name/);
    fails(['enroll', '--url', 'https://x', '--token', 't', '--bogus'], /Unknown option/);
    fails(['status', '--token', 't'], /enroll" only/);
    fails(['frobnicate'], /Unknown command "frobnicate"/);
  });

  it('help without a command, with help or -h', () => {
    for (const argv of [[], ['help'], ['--help'], ['status', '-h']]) expect(parseCommandLine(argv).kind).toBe('help');
  });

  it('status and down take the tunnel options', () => {
    expect(parseCommandLine(['down', '--interface', 'wg1'])).toEqual({ kind: 'down', interfaceName: 'wg1', configDir: '/etc/wireguard' });
    expect(parseCommandLine(['status'])).toEqual({ kind: 'status', interfaceName: 'palisade0', configDir: '/etc/wireguard' });
  });
});
