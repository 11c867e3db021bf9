import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { ADMIN_PASSWORD } from './support/constants';
import { SYSTEM_GRPC_PORT, SYSTEM_PORT } from './system/support/system-constants';

/**
 * System tests: the built product plus real WireGuard tooling (wg, wg-quick, wireguard-go) in
 * network namespaces. They need root (CI runs as root).
 */
const here = dirname(fileURLToPath(import.meta.url));
process.env.PALISADE_SYSTEM_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'palisade-system-'));

// Playwright demands a default export here.
export default defineConfig({
  testDir: './system',
  testMatch: '*.spec.ts',
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  outputDir: './test-results-system',
  use: { baseURL: `http://127.0.0.1:${SYSTEM_PORT}` },
  webServer: {
    command: 'node ../apps/api/dist/main.js',
    cwd: here,
    url: `http://127.0.0.1:${SYSTEM_PORT}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(SYSTEM_PORT),
      GRPC_PORT: String(SYSTEM_GRPC_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.PALISADE_SYSTEM_DATA_DIR,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
    },
  },
});
