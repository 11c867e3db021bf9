import { describe, expect, it } from 'vitest';
import { ConfigError, parseCommandLine } from './config.js';

describe('config', () => {
  it('reads variables, flags win, defaults fill the rest', () => {
    const parsed = parseCommandLine({ PROVISIONER_URL: 'https://vpn.example.com', PROVISIONER_TOKEN: 'palr_x', PROVISIONER_NAME: 'desk' }, [
      '--key-algorithm',
      'rsa4096',
      '--name=front',
    ]);
    expect(parsed).toEqual({
      kind: 'run',
      config: expect.objectContaining({
        url: 'https://vpn.example.com',
        token: 'palr_x',
        name: 'front',
        keyAlgorithm: 'rsa4096',
        card: 'yubikey',
        pollWaitSeconds: 25,
      }),
    });
  });

  it('names the variable and the flag of a bad or missing value', () => {
    expect(() => parseCommandLine({ PROVISIONER_TOKEN: 't' }, [])).toThrow(/PROVISIONER_URL \(--url\)/);
    expect(() => parseCommandLine({ PROVISIONER_URL: 'https://x' }, [])).toThrow(/PROVISIONER_TOKEN \(--token\): is required/);
    expect(() => parseCommandLine({ PROVISIONER_URL: 'https://x', PROVISIONER_TOKEN: 't' }, ['--key-algorithm', 'dsa'])).toThrow(
      ConfigError,
    );
    expect(() => parseCommandLine({}, ['--bogus'])).toThrow(/unknown argument/);
  });
});
