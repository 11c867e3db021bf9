import { readFileSync } from 'node:fs';

/**
 * One ESM bundle (dist/main.js) of a Node app of the workspace (the API, the gateway agent). The
 * app's own npm dependencies stay external and load from its node_modules; everything else
 * (workspace packages, which are TypeScript sources, and their dependencies, which pnpm does not
 * expose to the app) is bundled in. `entry`/`outfile` name another program of the app (the API's
 * `palisade-admin`, dist/admin.js). `build` is esbuild's, passed by the app, whose dependency it is.
 */
export async function bundleNodeApp(build, appDir, { entry = 'src/main.ts', outfile = 'dist/main.js' } = {}) {
  const { dependencies } = JSON.parse(readFileSync(new URL('package.json', appDir), 'utf8'));
  const external = new Set(Object.keys(dependencies).filter((name) => !name.startsWith('@palisade/')));
  const packageName = (path) =>
    path
      .split('/')
      .slice(0, path.startsWith('@') ? 2 : 1)
      .join('/');
  await build({
    absWorkingDir: new URL('.', appDir).pathname,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-app-dependencies',
        setup(b) {
          b.onResolve({ filter: /^[^./#]/ }, (args) => {
            if (args.path.startsWith('node:')) return { path: args.path, external: true };
            return external.has(packageName(args.path)) ? { path: args.path, external: true } : undefined;
          });
        },
      },
    ],
  });
}
