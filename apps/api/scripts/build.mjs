import { build } from 'esbuild';

// One ESM bundle of the API and the workspace packages (TypeScript sources); npm dependencies
// stay external and load from node_modules.
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
      name: 'external-npm-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./#]/ }, (args) =>
          args.path.startsWith('@palisade/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
