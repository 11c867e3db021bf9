import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

// One ESM bundle of the agent (dist/main.js), as for the API: npm dependencies stay external and
// load from node_modules; workspace packages (TypeScript sources) are bundled in.
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
      name: 'external-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./#]/ }, (args) => {
          if (args.path.startsWith('node:')) return { path: args.path, external: true };
          return external.has(packageName(args.path)) ? { path: args.path, external: true } : undefined;
        });
      },
    },
  ],
});
