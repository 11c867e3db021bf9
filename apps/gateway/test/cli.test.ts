import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The `palisade-gateway` bin as operators start it: exit codes and messages of bad configuration. */
const bin = fileURLToPath(new URL('../bin/palisade-gateway.mjs', import.meta.url));
const run = (args: string[], env: Record<string, string> = {}) => {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GATEWAY_')));
  return spawnSync(process.execPath, [bin, ...args], { env: { ...clean, ...env }, encoding: 'utf8', timeout: 20_000 });
};

describe('palisade-gateway bin', () => {
  it('prints usage with --help and the version with --version', () => {
    expect(run(['--help']).stdout).toContain('GATEWAY_STATS_INTERVAL');
    expect(run(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('stops with exit code 1 and a message naming the missing or bad variable', () => {
    const missing = run([]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('GATEWAY_GRPC_URL (--grpc-url): is required');
    const bad = run([], { GATEWAY_GRPC_URL: 'https://cp.example:8443', GATEWAY_TOKEN: 't', GATEWAY_USERSPACE: 'maybe' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('GATEWAY_USERSPACE (--userspace): must be auto, always or never');
  });

  it('names GATEWAY_CA_FILE when the CA file cannot be read', () => {
    const r = run(['--grpc-url', 'https://cp.example:8443', '--token', 't', '--ca-file', '/nonexistent/ca.pem']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('GATEWAY_CA_FILE (--ca-file): cannot read /nonexistent/ca.pem');
  });

  it('names GATEWAY_CA_FILE when the file is not a certificate, and GATEWAY_USERSPACE when wireguard-go is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'palisade-gw-cli-'));
    try {
      writeFileSync(join(dir, 'ca.pem'), 'not a certificate\n');
      const notPem = run(['--grpc-url', 'https://cp.example:8443', '--token', 't', '--ca-file', join(dir, 'ca.pem')]);
      expect(notPem.status).toBe(1);
      expect(notPem.stderr).toContain(`GATEWAY_CA_FILE (--ca-file): ${join(dir, 'ca.pem')} is not a PEM certificate`);
      // A PATH with wg and ip (any executable will do: they are not run) but no wireguard-go.
      for (const tool of ['wg', 'ip']) symlinkSync('/bin/true', join(dir, tool));
      const noGo = run(['--grpc-url', 'http://127.0.0.1:9', '--token', 't', '--userspace', 'always'], { PATH: dir });
      expect(noGo.status).toBe(1);
      expect(noGo.stderr).toContain('GATEWAY_USERSPACE (--userspace): always, but wireguard-go is not installed');
      const noTools = run(['--grpc-url', 'http://127.0.0.1:9', '--token', 't'], { PATH: '/nonexistent' });
      expect(noTools.status).toBe(1);
      expect(noTools.stderr).toContain('wg and ip not found on PATH');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
