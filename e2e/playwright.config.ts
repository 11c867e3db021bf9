import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { ADMIN_PASSWORD, E2E_GRPC_PORT, E2E_PORT, E2E_UPDATE_FEED_PORT } from './support/constants';

const here = dirname(fileURLToPath(import.meta.url));
/** Optional: run against an already running instance (development only); otherwise the built product is started. */
const externalUrl = process.env.PALISADE_E2E_URL;

// One fresh embedded database per run. The config is evaluated in the runner and in each worker;
// the environment variable makes them agree on a single directory (removed by global teardown).
process.env.PALISADE_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'palisade-e2e-'));

// Playwright demands a default export here.
export default defineConfig({
  testDir: './specs',
  workers: 1,
  retries: 0,
  fullyParallel: false,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  globalTeardown: './support/global-teardown.ts',
  outputDir: './test-results',
  use: {
    baseURL: externalUrl ?? `http://127.0.0.1:${E2E_PORT}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: externalUrl
    ? undefined
    : {
        // The preload lets the product trust the TEST licence key and lifts the free limits (docs/licensing.md).
        command: 'node --import ./support/licence-preload.mjs ../apps/api/dist/main.js',
        cwd: here,
        url: `http://127.0.0.1:${E2E_PORT}/api/v1/health`,
        reuseExistingServer: false,
        timeout: 60_000,
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          PORT: String(E2E_PORT),
          GRPC_PORT: String(E2E_GRPC_PORT),
          HOST: '127.0.0.1',
          DATA_DIR: process.env.PALISADE_E2E_DATA_DIR,
          ADMIN_PASSWORD,
          WEB_DIST: resolve(here, '../apps/web/dist'),
          LOG_LEVEL: 'warn',
          // Every spec's browser and API calls come from 127.0.0.1, one client address for the whole
          // suite: the default 600 requests a minute per address is a limit for one real client, and
          // the suite passes it as it grows (a spec then sees "Too many requests"). The limiter stays
          // on; its behaviour is tested in apps/api (http.int.test.ts).
          RATE_LIMIT_PER_MINUTE: '100000',
          // The update notice spec serves the release feed here, and the product reads it every
          // second instead of every 6 hours, so a changed feed shows within the spec's timeouts.
          UPDATE_FEED_URL: `http://127.0.0.1:${E2E_UPDATE_FEED_PORT}/releases.json`,
          UPDATE_CHECK_INTERVAL_SECONDS: '1',
        },
      },
});
