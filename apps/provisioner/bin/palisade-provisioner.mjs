#!/usr/bin/env node
// Launcher of the provisioning station: runs the TypeScript sources through tsx.
const { register } = await import('tsx/esm/api');
register();
await import(new URL('../src/main.ts', import.meta.url).href);
