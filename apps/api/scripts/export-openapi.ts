import { writeFileSync } from 'node:fs';
import { buildApp } from '#src/app.js';
import type { DatabaseHandle, Db } from '#src/db/client.js';
import { parseEnv } from '#src/env.js';

/**
 * Writes the OpenAPI document generated from the routes. Building the app touches no database
 * (only requests do), so an unconnected handle is enough here.
 */
const detached: DatabaseHandle = {
  kind: 'postgres',
  db: {} as Db,
  withConnection: () => Promise.reject(new Error('no database in export-openapi')),
  close: async () => undefined,
};

const out = process.argv[2];
if (!out) throw new Error('usage: export-openapi.ts <out.json>');
const app = await buildApp({ env: parseEnv({ LOG_LEVEL: 'silent' }), database: detached, logger: false });
await app.ready();
writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
