import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectGateway, createGrpcApp, type GrpcTestApp, snapshotOf, type TestGateway } from '#test/gateway-support.js';
import { createLocation } from '#test/network-fixtures.js';

/**
 * GRPC_TLS_CERT / GRPC_TLS_KEY: the gateways' gRPC server speaks TLS; a gateway that trusts the CA
 * gets its snapshot, one that does not is refused, and the token route hands out an https URL.
 */
const dir = mkdtempSync(join(tmpdir(), 'palisade-api-pki-'));
const file = (name: string) => join(dir, name);
let app: GrpcTestApp;
const gateways: TestGateway[] = [];

beforeAll(async () => {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-days', '1', '-subj', '/CN=Palisade test CA', '-keyout', file('ca.key'), '-out', file('ca.pem'));
  openssl('req', ...ec, '-subj', '/CN=127.0.0.1', '-keyout', file('server.key'), '-out', file('server.csr'));
  writeFileSync(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    ...['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial'],
    ...['-days', '1', '-extfile', file('ext.cnf'), '-out', file('server.pem')],
  );
  app = await createGrpcApp({ env: { GRPC_TLS_CERT: file('server.pem'), GRPC_TLS_KEY: file('server.key') } });
});

afterAll(async () => {
  for (const g of gateways) g.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('serves gateways over TLS only', async () => {
  const location = await createLocation(app.app, app.admin);
  const issued = (
    await app.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/token`, headers: { cookie: app.admin } })
  ).json() as { token: string; grpc_url: string };
  expect(issued.grpc_url).toMatch(/^https:\/\//);

  const trusted = connectGateway(app.port, issued.token, {}, { ca: readFileSync(file('ca.pem')) });
  gateways.push(trusted);
  const snapshot = await trusted.waitFor('a snapshot over TLS', snapshotOf);
  expect(snapshot.interface?.listenPort).toBeGreaterThan(0);

  const untrusting = connectGateway(app.port, issued.token, {}, { ca: Buffer.from('') });
  gateways.push(untrusting);
  expect(await untrusting.waitEnded()).toBeDefined();
  expect(untrusting.received).toEqual([]);

  const plain = connectGateway(app.port, issued.token);
  gateways.push(plain);
  // Plain HTTP/2 to the TLS port: the connection is dropped before any message.
  await plain.waitEnded();
  expect(plain.received).toEqual([]);
}, 60_000);
