#!/usr/bin/env node
// Launcher of the Palisade CLI: runs the bundle (dist/main.js, made by `pnpm build`) when it
// exists, else the TypeScript sources through tsx, so a checkout works without a build step.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist/main.js', import.meta.url);
if (existsSync(fileURLToPath(bundle))) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}
