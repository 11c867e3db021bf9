import { build } from 'esbuild';
import { bundleNodeApp } from '../../../../scripts/bundle-node-app.mjs';

/**
 * Vitest global setup: rebuild dist/main.js before the tests. The bin runs the bundle whenever it
 * exists, so the tests that spawn the bin (cli, daemon) would otherwise exercise a stale build.
 */
export async function setup() {
  await bundleNodeApp(build, new URL('../../', import.meta.url));
}
