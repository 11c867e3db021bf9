import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import {
  type ControlMessage,
  type GatewayMessage,
  type GatewayMessageSchema as GatewayMessageSchemaType,
  GatewayMessageSchema,
  GatewayService,
  WireGuardImplementation,
} from '@palisade/proto';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { TEST_LICENCE_OPTIONS } from './support/licence.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#src/app.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { parseEnv } from '#src/env.js';
import { Outbox } from '#src/gateway-control/outbox.js';
import { ADMIN_PASSWORD, ensureWorkerDatabase, resetDatabase } from './helpers.js';
import { newKey } from './network-fixtures.js';

/** An API instance with its gRPC server on an ephemeral port, on this worker's database. */
export interface GrpcTestApp {
  app: FastifyInstance;
  port: number;
  admin: string;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export async function createGrpcApp(options: { reset?: boolean; env?: Record<string, string> } = {}): Promise<GrpcTestApp> {
  const url = await ensureWorkerDatabase();
  const env = parseEnv({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    SECRET_KEY: 'k'.repeat(40),
    ...options.env,
  });
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 5 });
  if (options.reset !== false) await resetDatabase(database);
  const app = await buildApp({
    env,
    database,
    logger: process.env.GW_DEBUG ? { level: 'warn' } : false,
    grpc: { port: 0, host: '127.0.0.1' },
    licence: TEST_LICENCE_OPTIONS,
  });
  await app.ready();
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
  const admin = String(res.headers['set-cookie']).split(';')[0] ?? '';
  return {
    app,
    port: app.gatewayControl?.port ?? 0,
    admin,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Resolves once `check` returns a value (polled), or fails after `ms` with `what`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export type HelloInit = Partial<{
  gatewayId: string;
  gatewayName: string;
  hostname: string;
  appliedRevisionEpoch: string;
  appliedRevision: bigint;
  wireguardImplementation: WireGuardImplementation;
}>;

/** A scripted gateway: a raw connect-node client of GatewayService.Connect. */
export interface TestGateway {
  received: ControlMessage[];
  error: ConnectError | undefined;
  ended: boolean;
  send(message: MessageInitShape<typeof GatewayMessageSchemaType>): void;
  ack(epoch: string, revision: bigint): void;
  waitFor<T>(what: string, pick: (m: ControlMessage) => T | undefined, ms?: number): Promise<T>;
  waitEnded(ms?: number): Promise<ConnectError | undefined>;
  close(): void;
}

export function connectGateway(port: number, token: string | undefined, hello: HelloInit | null = {}, tls?: { ca: Buffer }): TestGateway {
  const baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const nodeOptions = tls ? { ca: tls.ca } : {};
  const sessionManager = new Http2SessionManager(baseUrl, undefined, nodeOptions);
  const transport = createGrpcTransport({ baseUrl, sessionManager, nodeOptions });
  const client = createClient(GatewayService, transport);
  const outbox = new Outbox<GatewayMessage>();
  const abort = new AbortController();
  if (hello) {
    outbox.push(
      create(GatewayMessageSchema, {
        kind: {
          case: 'hello',
          value: {
            gatewayId: 'gw-1',
            gatewayName: 'gateway one',
            hostname: 'gw1.example',
            agentVersion: '0.1.0',
            interfaceName: 'wg0',
            wireguardImplementation: WireGuardImplementation.USERSPACE,
            ...hello,
          },
        },
      }),
    );
  }
  const gw: TestGateway = {
    received: [],
    error: undefined,
    ended: false,
    send: (m) => outbox.push(create(GatewayMessageSchema, m)),
    ack: (epoch, revision) =>
      outbox.push(create(GatewayMessageSchema, { kind: { case: 'ack', value: { revision, revisionEpoch: epoch } } })),
    async waitFor(what, pick, ms = 20_000) {
      return waitFor(
        what,
        () => {
          for (const m of gw.received) {
            const v = pick(m);
            if (v !== undefined) return v;
          }
          return undefined;
        },
        ms,
      );
    },
    async waitEnded(ms = 20_000) {
      await waitFor('the stream to end', () => gw.ended, ms);
      return gw.error;
    },
    close() {
      outbox.close();
      abort.abort();
      sessionManager.abort();
    },
  };
  void (async () => {
    try {
      const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
      for await (const m of client.connect(outbox, { headers, signal: abort.signal })) gw.received.push(m);
    } catch (e) {
      const err = ConnectError.from(e);
      if (err.code !== Code.Canceled) gw.error = err;
      if (process.env.GW_DEBUG) console.error('gw error', err.code, err.rawMessage, err.cause);
    } finally {
      gw.ended = true;
    }
  })();
  return gw;
}

export const snapshotOf = (m: ControlMessage) => (m.kind.case === 'snapshot' ? m.kind.value : undefined);
export const deltaOf = (m: ControlMessage) => (m.kind.case === 'delta' ? m.kind.value : undefined);
export const errorOf = (m: ControlMessage) => (m.kind.case === 'error' ? m.kind.value : undefined);

/**
 * Creates a device for admin through `via`'s REST API and expects `gateway` (at `snapshot`) to get
 * it as the next revision's peer upsert.
 */
export async function expectDeviceDelta(via: GrpcTestApp, gateway: TestGateway, snapshot: { revision: bigint }): Promise<void> {
  const key = newKey();
  const created = await via.app.inject({
    method: 'POST',
    url: '/api/v1/device/admin',
    headers: { cookie: via.admin },
    payload: { name: `laptop-${key.slice(0, 6)}`, wireguard_pubkey: key },
  });
  if (created.statusCode !== 201) throw new Error(`device create: ${created.statusCode} ${created.body}`);
  const delta = await gateway.waitFor('the device delta', deltaOf);
  if (delta.revision !== snapshot.revision + 1n) throw new Error(`delta at ${delta.revision}, expected ${snapshot.revision + 1n}`);
  const op = delta.ops[0]?.op;
  if (op?.case !== 'peerUpsert' || op.value.peer?.publicKey !== key) throw new Error(`unexpected delta op ${JSON.stringify(op?.case)}`);
}
