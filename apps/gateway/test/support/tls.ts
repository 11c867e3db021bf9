import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throw-away private CA and a server certificate it signed for 127.0.0.1 and localhost, made
 * with the openssl CLI (Node cannot issue certificates). `dir` holds ca.pem; `remove()` deletes it.
 */
export interface TestPki {
  dir: string;
  caFile: string;
  ca: Buffer;
  serverKey: Buffer;
  serverCert: Buffer;
  remove(): void;
}

export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-gw-pki-'));
  const f = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
    ...['-subj', '/CN=Palisade test CA', '-keyout', f('ca.key'), '-out', f('ca.pem')],
  );
  openssl(
    ...['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
    ...['-subj', '/CN=127.0.0.1', '-keyout', f('server.key'), '-out', f('server.csr')],
  );
  writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    ...['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial'],
    ...['-days', '1', '-extfile', f('ext.cnf'), '-out', f('server.pem')],
  );
  return {
    dir,
    caFile: f('ca.pem'),
    ca: readFileSync(f('ca.pem')),
    serverKey: readFileSync(f('server.key')),
    serverCert: readFileSync(f('server.pem')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
