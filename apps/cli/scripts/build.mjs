import { build } from 'esbuild';
import { bundleNodeApp } from '../../../scripts/bundle-node-app.mjs';

// One file (dist/main.js) with @palisade/wireguard inside: copy it to a server and run it with Node 20.
await bundleNodeApp(build, new URL('../', import.meta.url));
