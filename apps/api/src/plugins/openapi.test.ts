import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.js';
import type { DatabaseHandle, Db } from '#src/db/client.js';
import { parseEnv } from '#src/env.js';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: { type?: unknown } }> }>;
}

/** Building the app touches no database (only requests do), as in scripts/export-openapi.ts. */
const detached: DatabaseHandle = {
  kind: 'postgres',
  db: {} as Db,
  withConnection: () => Promise.reject(new Error('no database in this test')),
  close: async () => undefined,
};

describe('OpenAPI document', () => {
  let app: FastifyInstance;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    app = await buildApp({ env: parseEnv({ LOG_LEVEL: 'silent' }), database: detached, logger: false });
    await app.ready();
    paths = (app.swagger() as { paths: typeof paths }).paths;
  });
  afterAll(() => app.close());

  it.each(['/api/v1/network/{network_id}/device/{device_id}/config', '/api/v1/device/network/{id}/config'])(
    'GET %s declares a text/plain string, not JSON',
    (path) => {
      const ok = paths[path]?.get?.responses?.['200'];
      expect(Object.keys(ok?.content ?? {})).toEqual(['text/plain']);
      expect(ok?.content?.['text/plain']?.schema?.type).toBe('string');
    },
  );

  it('no success response declares a bare string as JSON (text answers say text/plain)', () => {
    const offenders: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (status.startsWith('2') && response.content?.['application/json']?.schema?.type === 'string') {
            offenders.push(`${method.toUpperCase()} ${path} ${status}`);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
