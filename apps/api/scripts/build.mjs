import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

// One ESM bundle of the API. The API's own npm dependencies stay external and load from its
// node_modules; everything else (workspace packages, which are TypeScript sources, and their
// dependencies, which pnpm does not expose to the API) is bundled in.
const { dependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = new Set(Object.keys(dependencies).filter((name) => !name.startsWith('@palisade/')));
const packageName = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-api-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./#]/ }, (args) => {
          if (args.path.startsWith('node:')) return { path: args.path, external: true };
          return external.has(packageName(args.path)) ? { path: args.path, external: true } : undefined;
        });
      },
    },
  ],
});
