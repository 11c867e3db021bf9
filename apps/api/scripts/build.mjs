import { build } from 'esbuild';
import { bundleNodeApp } from '../../../scripts/bundle-node-app.mjs';

await bundleNodeApp(build, new URL('../', import.meta.url));
