import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeSystem, TUNNEL } from './fakes.test-support.js';
import { describeStatus, parseDump, tunnelStatus, wgQuick } from './tunnel.js';

describe('tunnel', () => {
  let dir: string;
  const log: string[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'palisade-cli-'));
    log.length = 0;
    writeFileSync(join(dir, 'wgt.conf'), TUNNEL.config, { mode: 0o600 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const target = () => ({ interfaceName: 'wgt', configDir: dir });

  it('without resolvconf, wg-quick gets a copy without DNS named for the interface, removed afterwards', async () => {
    let seen = '';
    let seenPath = '';
    const system = fakeSystem({
      installed: ['wg-quick'],
      answer: (_cmd, args) => {
        seenPath = args[1] ?? '';
        seen = readFileSync(seenPath, 'utf8');
        return { code: 0, stdout: '', stderr: '' };
      },
    });
    await wgQuick(system, 'up', target(), (l) => log.push(l));
    expect(seenPath).toMatch(/\/wgt\.conf$/);
    expect(seenPath).not.toBe(join(dir, 'wgt.conf'));
    expect(seen).toBe(TUNNEL.config.replace('DNS = 10.60.0.1\n', ''));
    expect(() => readFileSync(seenPath)).toThrow();
    expect(log.join()).toMatch(/without its DNS servers/);
  });

  it('explains no root, a missing config, a tunnel already up or not up', async () => {
    await expect(wgQuick(fakeSystem({ root: false, installed: ['wg-quick'] }), 'up', target(), () => {})).rejects.toThrow(/needs root/);
    await expect(wgQuick(fakeSystem({ installed: [] }), 'up', target(), () => {})).rejects.toThrow(/wg-quick is not installed/);
    const missing = { interfaceName: 'nope', configDir: dir };
    await expect(wgQuick(fakeSystem({ installed: ['wg-quick'] }), 'down', missing, () => {})).rejects.toThrow(/No tunnel config at/);
    const failing = (stderr: string) =>
      fakeSystem({ installed: ['wg-quick', 'resolvconf'], answer: () => ({ code: 1, stdout: '', stderr }) });
    await expect(wgQuick(failing("wg-quick: `wgt' already exists\n"), 'up', target(), () => {})).rejects.toThrow(/is up already/);
    await expect(wgQuick(failing("wg-quick: `wgt' is not a WireGuard interface\n"), 'down', target(), () => {})).rejects.toThrow(
      'The tunnel wgt is not up.',
    );
  });

  it('status parses wg show dump and says down when the interface does not exist', async () => {
    const dump = `PRIV\tPUBLIC\t0\toff\n${TUNNEL.public_key}\t(none)\t192.0.2.1:51820\t10.60.0.0/24\t1000\t148\t92\t25\n`;
    const up = await tunnelStatus(fakeSystem({ installed: ['wg'], answer: () => ({ code: 0, stdout: dump, stderr: '' }) }), target());
    expect(up).toEqual(parseDump(dump));
    expect(describeStatus(target(), up, true, 1010)).toEqual([
      'wgt: up',
      'public key: PUBLIC',
      `peer ${TUNNEL.public_key}`,
      '  endpoint: 192.0.2.1:51820',
      '  allowed ips: 10.60.0.0/24',
      '  latest handshake: 10 s ago',
      '  transfer: 148 B received, 92 B sent',
    ]);
    const down = await tunnelStatus(
      fakeSystem({ installed: ['wg'], answer: () => ({ code: 1, stdout: '', stderr: 'Unable to access interface: No such device' }) }),
      target(),
    );
    expect(describeStatus(target(), down, false, 0)).toEqual(['wgt: down', 'not enrolled on this machine']);
    const denied = fakeSystem({
      installed: ['wg'],
      answer: () => ({ code: 1, stdout: '', stderr: 'Unable to access interface: Operation not permitted' }),
    });
    await expect(tunnelStatus(denied, target())).rejects.toThrow('palisade status needs root');
  });
});
