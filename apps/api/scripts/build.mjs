import { build } from 'esbuild';
import { bundleNodeApp } from '../../../scripts/bundle-node-app.mjs';

await bundleNodeApp(build, new URL('../', import.meta.url));
// palisade-admin: backup and restore (docs/operations.md).
await bundleNodeApp(build, new URL('../', import.meta.url), { entry: 'src/admin/cli.ts', outfile: 'dist/admin.js' });
