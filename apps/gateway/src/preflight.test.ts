import { describe, expect, it } from 'vitest';
import { CommandError } from '#src/ports/command-runner.js';
import { createFakeWireGuard } from './adapters/fake-wireguard.js';
import { NotWireGuardError } from './adapters/wireguard-userspace.js';
import { ConfigError } from './config.js';
import { checkInterface, checkTools, readCaFile } from './preflight.js';

const only =
  (...present: string[]) =>
  (name: string) =>
    present.includes(name) ? `/usr/bin/${name}` : undefined;

describe('preflight', () => {
  it('names GATEWAY_CA_FILE when the file is unreadable or not a certificate', () => {
    expect(() => readCaFile('/nope/ca.pem')).toThrow(/^GATEWAY_CA_FILE \(--ca-file\): cannot read \/nope\/ca.pem/);
    expect(() => readCaFile('/etc/ca.pem', () => Buffer.from('-----BEGIN NONSENSE-----\n'))).toThrow(
      'GATEWAY_CA_FILE (--ca-file): /etc/ca.pem is not a PEM certificate',
    );
  });

  it('needs wg and ip, and wireguard-go only for GATEWAY_USERSPACE=always', () => {
    expect(() => checkTools({ userspace: 'auto' }, '/bin', only('ip'))).toThrow('wg not found on PATH');
    expect(() => checkTools({ userspace: 'auto' }, '/bin', only('wg', 'ip'))).not.toThrow();
    expect(() => checkTools({ userspace: 'never' }, '/bin', only('wg', 'ip'))).not.toThrow();
    expect(() => checkTools({ userspace: 'always' }, '/bin', only('wg', 'ip'))).toThrow(
      'GATEWAY_USERSPACE (--userspace): always, but wireguard-go is not installed',
    );
  });

  it('creates the kernel link at once when only the kernel can serve, and names GATEWAY_USERSPACE without the module', async () => {
    const noModule = async () => {
      throw new CommandError(['ip', 'link', 'add'], 2, 'Error: Unknown device type.\n');
    };
    const never = checkInterface({ userspace: 'never', ifname: 'wg0' }, createFakeWireGuard(), {
      hasWireguardGo: true,
      createLink: noModule,
    });
    await expect(never).rejects.toThrow(/^GATEWAY_USERSPACE \(--userspace\): never, but the kernel has no WireGuard module/);
    await expect(never).rejects.toBeInstanceOf(ConfigError);
    const auto = checkInterface({ userspace: 'auto', ifname: 'wg0' }, createFakeWireGuard(), {
      hasWireguardGo: false,
      createLink: noModule,
    });
    await expect(auto).rejects.toThrow('auto, and wireguard-go is not installed, but the kernel has no WireGuard module');

    let created = 0;
    const createLink = async () => created++;
    await checkInterface({ userspace: 'auto', ifname: 'wg0' }, createFakeWireGuard(), { hasWireguardGo: true, createLink });
    await checkInterface({ userspace: 'always', ifname: 'wg0' }, createFakeWireGuard(), { hasWireguardGo: true, createLink });
    expect(created).toBe(0); // wireguard-go will do: the interface waits for the first snapshot
    await checkInterface({ userspace: 'never', ifname: 'wg0' }, createFakeWireGuard(), { hasWireguardGo: true, createLink });
    expect(created).toBe(1);
  });

  it('names GATEWAY_IFNAME when the name belongs to a link that is not WireGuard', async () => {
    const wireguard = createFakeWireGuard();
    wireguard.read = async () => {
      throw new NotWireGuardError('interface wg0 exists but is not WireGuard (kind bridge)');
    };
    await expect(
      checkInterface({ userspace: 'auto', ifname: 'wg0' }, wireguard, { hasWireguardGo: true, createLink: async () => 0 }),
    ).rejects.toThrow('GATEWAY_IFNAME (--ifname): interface wg0 exists but is not WireGuard (kind bridge)');
  });
});
