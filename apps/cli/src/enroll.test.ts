import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicKeyFromPrivate } from '@palisade/wireguard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommandLine } from './args.js';
import { enroll, withPrivateKey } from './enroll.js';
import { type FakeServer, fakeServer, fakeSystem, TUNNEL } from './fakes.test-support.js';

describe('palisade enroll', () => {
  let dir: string;
  let server: FakeServer;
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palisade-cli-'));
    lines.length = 0;
    server = await fakeServer(() => ({ status: 201, body: JSON.stringify({ device: { id: 4, name: 'edge-1' }, tunnel: TUNNEL }) }));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const command = (...extra: string[]) => {
    const cmd = parseCommandLine(['enroll', '--url', server.url, '--token', 'tok', '--config-dir', dir, '--interface', 'wgt', ...extra]);
    if (cmd.kind !== 'enroll') throw new Error('not enroll');
    return cmd;
  };

  it('makes the key pair here, sends only the public key, writes the config with the private key and mode 0600', async () => {
    const file = await enroll(command(), fakeSystem({ root: false }), log);
    expect(file).toBe(join(dir, 'wgt.conf'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    const privateKey = /^PrivateKey = (.+)$/m.exec(text)?.[1] ?? '';
    const sent = JSON.parse(server.requests[0]?.body ?? '{}');
    expect(sent).toEqual({ token: 'tok', wireguard_pubkey: publicKeyFromPrivate(privateKey) });
    expect(server.requests[0]?.body).not.toContain(privateKey);
    expect(text).toBe(TUNNEL.config.replace('YOUR_PRIVATE_KEY', privateKey));
    expect(lines.join('\n')).toContain('sudo wg-quick up');
    expect(lines[0]).toMatch(/^warning: http:\/\/127\.0\.0\.1:\d+ is plain http/);
  });

  it('uses wg genkey and wg pubkey when wireguard-tools are installed', async () => {
    const system = fakeSystem({
      root: false,
      installed: ['wg'],
      answer: (_cmd, args) =>
        args[0] === 'genkey'
          ? { code: 0, stdout: 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\n', stderr: '' }
          : { code: 0, stdout: 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=\n', stderr: '' },
    });
    await enroll(command(), system, log);
    expect(system.calls.map((c) => c.args[0])).toEqual(['genkey', 'pubkey']);
    expect(JSON.parse(server.requests[0]?.body ?? '{}').wireguard_pubkey).toBe('HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=');
    expect(readFileSync(join(dir, 'wgt.conf'), 'utf8')).toContain('PrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=');
  });

  it('--up without root fails before the token is spent', async () => {
    await expect(enroll(command('--up'), fakeSystem({ root: false, installed: ['wg-quick'] }), log)).rejects.toThrow(
      /needs root: run it with sudo/,
    );
    expect(server.requests).toEqual([]);
  });

  it('refuses to overwrite an existing config unless --force, before the token is spent', async () => {
    writeFileSync(join(dir, 'wgt.conf'), 'old', { mode: 0o644 });
    await expect(enroll(command(), fakeSystem({}), log)).rejects.toThrow(/exists already.*--force/);
    expect(server.requests).toEqual([]);
    await enroll(command('--force'), fakeSystem({}), log);
    expect(statSync(join(dir, 'wgt.conf')).mode & 0o777).toBe(0o600);
  });

  it('--up runs wg-quick up on the written config', async () => {
    const system = fakeSystem({ installed: ['wg-quick', 'resolvconf'] });
    await enroll(command('--up'), system, log);
    expect(system.calls).toEqual([{ cmd: 'wg-quick', args: ['up', join(dir, 'wgt.conf')] }]);
  });

  it('withPrivateKey refuses a config without the placeholder', () => {
    expect(() => withPrivateKey('[Interface]\n', 'k')).toThrow(/without a private key placeholder/);
  });
});
